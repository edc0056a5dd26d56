# Cross-compiling tscaudit for aarch64 Linux on a Debian 12 x86-64 host (`make test-arm64`,
# build-arm64/; docs/testing.md, "Under emulation: aarch64"):
#   - the compiler: g++-aarch64-linux-gnu (gcc 12.2), linking against its own aarch64 C and
#     C++ runtime in /usr/aarch64-linux-gnu;
#   - the compiled libraries, hwloc and zstd: Debian's multiarch :arm64 packages
#     (libhwloc-dev:arm64, libzstd-dev:arm64) in /usr/lib/aarch64-linux-gnu, found through
#     their .pc files;
#   - the header-only libraries (Boost.Lockfree, Eigen, CLI11, nlohmann/json, Catch2): the
#     host's packages, whose headers are the same text for every architecture;
#   - running what it builds: qemu-aarch64 (qemu-user), as CMAKE_CROSSCOMPILING_EMULATOR,
#     so that ctest, and Catch's test discovery, run the aarch64 binaries through it without
#     binfmt_misc. At run time every library is the multiarch :arm64 one (the loader
#     /lib/ld-linux-aarch64.so.1, libc6, libstdc++6, hwloc, zstd): the cross runtime's
#     libc (2.36-8cross1) is another build than libc6:arm64 (2.36-9+deb12uN), and its loader
#     with the other's libc hangs in pthread_create. -L / says so to qemu whatever
#     QEMU_LD_PREFIX holds.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# pkg-config sees the :arm64 .pc files and the architecture-independent ones, never the
# host's x86-64 ones.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /)
