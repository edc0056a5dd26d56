// What hwloc's archive needs from outside glibc, answered inside the fully static binary
// (TSCAUDIT_STATIC, src/CMakeLists.txt): this file is built only there, and linked right after
// libhwloc.a, so that the linker finds these definitions when it resolves the archive's calls.
//
// libudev. Debian's libhwloc.a calls five udev functions, and Debian ships no static libudev.
// Here udev is absent: udev_new() returns NULL. hwloc 2.9's Linux backend (hwloc/topology-linux.c,
// hwloc_linux_component_instantiate) calls udev_new() only for the real filesystem root and
// keeps the NULL; each later use is under `if (data->udev)`, and the one that reads
// (hwloc_linuxfs_block_class_fillinfos, the vendor, model and serial of block devices) falls
// back to reading /run/udev/data/bMAJOR:MINOR itself ("fallback to reading files, works with
// any fsroot"). CPUs, caches, packages and NUMA nodes come from sysfs and never touch udev;
// block devices are I/O objects, which the tool's topology (platform/topology.cpp) does not
// enable anyway (hwloc's default filter drops them).
//
// dlopen. Debian builds hwloc with plugins (HWLOC_HAVE_PLUGINS, without ltdl): at
// hwloc_topology_init, hwloc/components.c (hwloc_plugins_init) lists
// /usr/lib/x86_64-linux-gnu/hwloc, or $HWLOC_PLUGINS_PATH, and dlopen()s every hwloc_*.so it
// finds (the libhwloc-plugins package: PCI, OpenCL, CUDA, ...). That happens before the
// topology can choose components (hwloc_topology_set_components), so only the loader itself
// can refuse. A static binary must not load them: they are built against libhwloc.so and
// libc.so.6, which would come in as second copies beside the ones linked here. The link wraps
// dlopen, dlsym, dlerror and dlclose (--wrap, src/CMakeLists.txt): every call to them goes to
// the __wrap_ functions below, which load nothing, and hwloc skips each plugin
// (HWLOC_PLUGINS_VERBOSE=1 prints the dlerror() line below); the components compiled into the
// archive (linux, x86, synthetic, xml) do the work. glibc's own dlopen stays in the binary,
// unreachable from hwloc; its link-time warning (a static dlopen needs the shared libraries of
// the glibc it was linked with) is then not given, as no call to dlopen is left.
struct udev;
struct udev_device;

extern "C" {

udev* udev_new() { return nullptr; }
udev* udev_unref(udev* /*u*/) { return nullptr; }
udev_device* udev_device_new_from_subsystem_sysname(udev* /*u*/, const char* /*subsystem*/,
                                                    const char* /*sysname*/) {
  return nullptr;
}
const char* udev_device_get_property_value(udev_device* /*d*/, const char* /*key*/) { return nullptr; }
udev_device* udev_device_unref(udev_device* /*d*/) { return nullptr; }

// The linker's names for the wrapped functions (ld(1), --wrap): reserved identifiers by design.
// NOLINTBEGIN(bugprone-reserved-identifier)
void* __wrap_dlopen(const char* /*file*/, int /*mode*/) { return nullptr; }
char* __wrap_dlerror() {
  static char why[] = "tscaudit is statically linked: it loads no shared object (hwloc plugins included)";
  return why;
}
void* __wrap_dlsym(void* /*handle*/, const char* /*name*/) { return nullptr; }
int __wrap_dlclose(void* /*handle*/) { return -1; }
// NOLINTEND(bugprone-reserved-identifier)

}  // extern "C"
