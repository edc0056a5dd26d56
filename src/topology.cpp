#include "topology.hpp"

#include <hwloc.h>

#include <cerrno>
#include <cstring>

namespace tscsync {
namespace {

int count(hwloc_topology_t t, hwloc_obj_type_t type) {
  const int n = hwloc_get_nbobjs_by_type(t, type);
  return n < 0 ? 0 : n;  // -1: the type lies at several depths (not for these types)
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
  return s;
}

TopologyResult load_topology(const std::string& synthetic) {
  TopologyResult r;
  hwloc_topology_t t = nullptr;
  if (hwloc_topology_init(&t) != 0) {
    r.problem = std::string("hwloc_topology_init: ") + std::strerror(errno);
    return r;
  }
  if (!synthetic.empty() && hwloc_topology_set_synthetic(t, synthetic.c_str()) != 0) {
    r.problem = "hwloc rejects the synthetic topology '" + synthetic + "'";
  } else if (hwloc_topology_load(t) != 0) {
    r.problem = std::string("hwloc_topology_load: ") + std::strerror(errno);
  } else {
    r.ok = true;
    r.summary = summarize_topology(t);
  }
  hwloc_topology_destroy(t);
  return r;
}

}  // namespace tscsync
