#include "platform/topology.hpp"

#include <hwloc.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/errors.hpp"

namespace tscaudit {
namespace {

int count(hwloc_topology_t t, hwloc_obj_type_t type) {
  const int n = hwloc_get_nbobjs_by_type(t, type);
  return n < 0 ? 0 : n;  // -1: the type lies at several depths (not for these types)
}

/// The logical index of `pu`'s ancestor of `type`, or -1 where it has none.
int ancestor_index(hwloc_topology_t t, hwloc_obj_type_t type, hwloc_obj_t pu) {
  const hwloc_obj* a = hwloc_get_ancestor_obj_by_type(t, type, pu);
  return a == nullptr ? -1 : static_cast<int>(a->logical_index);
}

/// NUMA nodes hang beside the CPU tree in hwloc 2 (memory children), not above the PUs, so
/// the node is found by cpuset: the first node (in logical order) whose CPUs include `os`.
int numa_index(hwloc_topology_t t, unsigned os) {
  for (hwloc_obj_t n = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, nullptr); n != nullptr;
       n = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, n)) {
    if (n->cpuset != nullptr && hwloc_bitmap_isset(n->cpuset, os) != 0) return static_cast<int>(n->logical_index);
  }
  return -1;
}

/// Why `path` cannot be read as a file, or "" where it can (hwloc's own complaint for a
/// missing file is only an errno, and it says nothing about directories).
std::string unreadable_file_problem(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec) return "cannot read topology file " + path + ": " + ec.message();
  if (std::filesystem::is_directory(status)) return "cannot read topology file " + path + ": it is a directory";
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read topology file " + path + ": " + std::strerror(errno);
  return "";
}

/// The problem for a readable file hwloc refuses, with hwloc's errno (its only complaint).
std::string not_hwloc_xml(const std::string& path) {
  return "topology file " + path + " is not an hwloc XML topology (hwloc: " + std::strerror(errno) + ")";
}

}  // namespace

TopologySummary summarize_topology(hwloc_topology* topology) {
  TopologySummary s;
  s.packages = count(topology, HWLOC_OBJ_PACKAGE);
  s.dies = count(topology, HWLOC_OBJ_DIE);
  s.numa_nodes = count(topology, HWLOC_OBJ_NUMANODE);
  s.l3_domains = count(topology, HWLOC_OBJ_L3CACHE);
  s.cores = count(topology, HWLOC_OBJ_CORE);
  s.pus = count(topology, HWLOC_OBJ_PU);
  for (hwloc_obj_t l3 = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_L3CACHE, nullptr); l3 != nullptr;
       l3 = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_L3CACHE, l3)) {
    std::vector<int> cpus;
    for (int i = hwloc_bitmap_first(l3->cpuset); i >= 0; i = hwloc_bitmap_next(l3->cpuset, i)) cpus.push_back(i);
    s.l3_cpus.push_back(std::move(cpus));
  }
  // PUs by logical index: hwloc numbers them in tree order, which is topology order.
  for (hwloc_obj_t pu = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_PU, nullptr); pu != nullptr;
       pu = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_PU, pu)) {
    CpuPlace p;
    p.cpu = static_cast<int>(pu->os_index);
    p.package = ancestor_index(topology, HWLOC_OBJ_PACKAGE, pu);
    p.die = ancestor_index(topology, HWLOC_OBJ_DIE, pu);
    p.numa = numa_index(topology, pu->os_index);
    p.l3 = ancestor_index(topology, HWLOC_OBJ_L3CACHE, pu);
    p.core = ancestor_index(topology, HWLOC_OBJ_CORE, pu);
    s.places.push_back(p);
  }
  return s;
}

TopologySource parse_topology_source(const std::string& option_value) {
  static constexpr std::string_view kSyntheticPrefix = "synthetic:";
  if (option_value.empty()) {
    throw UsageError("--topology is empty (give synthetic:DESCRIPTION or the path of an hwloc XML file)");
  }
  if (option_value.starts_with(kSyntheticPrefix)) {
    TopologySource s{TopologySource::Kind::synthetic, option_value.substr(kSyntheticPrefix.size())};
    if (s.text.empty()) {
      throw UsageError("--topology 'synthetic:' has no description (e.g. synthetic:package:2 core:64 pu:2)");
    }
    return s;
  }
  return TopologySource{TopologySource::Kind::xml, option_value};
}

namespace {

/// load_topology, or, where `xml_name` is given, load_topology_xml of `xml_bytes`.
TopologyResult load_topology_from(const TopologySource& source, bool export_xml, std::string_view xml_bytes,
                                  const std::string& xml_name) {
  TopologyResult r;
  const bool from_buffer = !xml_name.empty();
  if (source.kind == TopologySource::Kind::xml && !from_buffer) {
    r.problem = unreadable_file_problem(source.text);
    if (!r.problem.empty()) return r;
  }
  const std::string& xml_source = from_buffer ? xml_name : source.text;
  hwloc_topology_t t = nullptr;
  if (hwloc_topology_init(&t) != 0) {
    r.problem = std::string("hwloc_topology_init: ") + std::strerror(errno);
    return r;
  }
  switch (source.kind) {
    case TopologySource::Kind::this_machine: break;
    case TopologySource::Kind::synthetic:
      if (hwloc_topology_set_synthetic(t, source.text.c_str()) != 0) {
        r.problem = "hwloc rejects the synthetic topology '" + source.text + "'";
      }
      break;
    case TopologySource::Kind::xml:
      // hwloc parses the file (or the buffer) here and reports only an errno (details go to
      // stderr when HWLOC_XML_VERBOSE=1 is set); well-formed XML of another kind fails in
      // load instead.
      errno = 0;
      if (from_buffer) {
        // A copy ends with a NUL: the size hwloc takes counts it, as
        // hwloc_topology_export_xmlbuffer gives it.
        const std::string copy(xml_bytes);
        if (copy.size() >= static_cast<std::size_t>(INT_MAX) ||
            hwloc_topology_set_xmlbuffer(t, copy.c_str(), static_cast<int>(copy.size() + 1)) != 0) {
          r.problem = not_hwloc_xml(xml_source);
        }
      } else if (hwloc_topology_set_xml(t, source.text.c_str()) != 0) {
        r.problem = not_hwloc_xml(xml_source);
      }
      break;
  }
  if (r.problem.empty()) {
    errno = 0;
    if (hwloc_topology_load(t) != 0) {
      r.problem = source.kind == TopologySource::Kind::xml
                      ? not_hwloc_xml(xml_source)
                      : std::string("hwloc_topology_load: ") + std::strerror(errno);
    } else {
      r.ok = true;
      r.summary = summarize_topology(t);
      if (export_xml) {
        char* buffer = nullptr;
        int length = 0;
        if (hwloc_topology_export_xmlbuffer(t, &buffer, &length, 0) != 0 || buffer == nullptr) {
          r.ok = false;
          r.problem = std::string("hwloc_topology_export_xmlbuffer: ") + std::strerror(errno);
        } else {
          // The length counts the terminating NUL.
          r.xml.assign(buffer, static_cast<std::size_t>(length > 0 ? length - 1 : 0));
          hwloc_free_xmlbuffer(t, buffer);
        }
      }
    }
  }
  hwloc_topology_destroy(t);
  return r;
}

}  // namespace

TopologyResult load_topology(const TopologySource& source, bool export_xml) {
  return load_topology_from(source, export_xml, {}, {});
}

TopologyResult load_topology_xml(std::string_view xml, const std::string& name) {
  return load_topology_from(TopologySource{TopologySource::Kind::xml, name}, false, xml, name);
}

TopologyResult load_topology(const std::string& synthetic) {
  return load_topology(synthetic.empty() ? TopologySource{}
                                         : TopologySource{TopologySource::Kind::synthetic, synthetic});
}

}  // namespace tscaudit
