#!/usr/bin/env bash
# Installs the C interface (batchgeometry.h) for C and C++ engines, under one prefix:
#
#   include/batchgeometry.h
#   lib/libbatchgeometry.so.<ABI>          the shared library: SONAME libbatchgeometry.so.<ABI>,
#                                          only bg_* exported, RUNPATH $ORIGIN only
#   lib/libbatchgeometry.so                -> libbatchgeometry.so.<ABI> (for -lbatchgeometry)
#   lib/libswiftCore.so                    the one Swift runtime library it loads (beside it)
#   lib/libbatchgeometry.a                 the static library with the Swift runtime inside:
#                                          links with -lstdc++ -lm -lpthread -ldl, no toolchain
#   lib/pkgconfig/batchgeometry.pc         pkg-config: the shared library
#   lib/pkgconfig/batchgeometry-static.pc  pkg-config: the static one
#   lib/cmake/BatchGeometry/BatchGeometryConfig.cmake (+ ConfigVersion): the imported
#                                          targets BatchGeometry::batchgeometry (shared) and
#                                          BatchGeometry::batchgeometry_static
#
# Package.swift has no unsafeFlags (a project rule), so the link flags live here: the script
# builds the SwiftPM product BatchGeometryCStatic in release and links both libraries from
# its objects with the toolchain's clang and the system's ld.bfd:
#
#   - shared: a version script exporting bg_* only, -soname, -rpath '$ORIGIN', --as-needed
#     (so _StringProcessing, _RegexParser, _Concurrency and swiftGlibc, which the objects
#     autolink but never call, are not linked), and the Dispatch overlay, libdispatch and
#     BlocksRuntime from the toolchain's static runtime (hidden in the library), because the
#     toolchain's shared libswiftDispatch.so itself needs _StringProcessing and _RegexParser;
#     libswiftCore.so, the one shared runtime library left, is copied beside it;
#   - static: `ld -r` of the objects, the toolchain's swiftrt.o and the static Swift runtime
#     (libswiftCore.a, libswiftDispatch.a, libdispatch.a, libBlocksRuntime.a) into one
#     object whose symbols are all local but bg_* (objcopy), archived.
#
# Linux Swift has no stable ABI: libswiftCore.so must be the one installed beside the
# library (the toolchain that built it). README.md, "Shipping", says what an engine ships.
#
# --debug installs a debug build instead (-Onone, with the C interface's debug checks: a
# store used by two threads at once, used after bg_store_destroy or destroyed twice is
# BG_ERROR_INVALID_ARGUMENT with a message; batchgeometry.h, "Threads"), for an engine's
# development builds; it links libswiftSwiftOnoneSupport from the static runtime too.
#
# usage: scripts/install.sh --prefix DIR [--debug] [--no-build] [--no-strip]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
prefix=""
build=1
strip=1
configuration=release
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --no-build) build=0; shift ;;
        --no-strip) strip=0; shift ;;
        --debug) configuration=debug; shift ;;
        *) echo "usage: scripts/install.sh --prefix DIR [--debug] [--no-build] [--no-strip]" >&2; exit 2 ;;
    esac
done
[ -n "$prefix" ] || { echo "usage: scripts/install.sh --prefix DIR [--debug] [--no-build] [--no-strip]" >&2; exit 2; }
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)

header=$root/Sources/CBatchGeometry/include/batchgeometry.h
define() { sed -n "s/^#define $1 \([0-9][0-9]*\).*/\1/p" "$header"; }
abi=$(define BG_ABI_VERSION)
version="$(define BG_VERSION_MAJOR).$(define BG_VERSION_MINOR).$(define BG_VERSION_PATCH)"
soname=libbatchgeometry.so.$abi

# The toolchain: its runtime libraries (shared and static) and swiftrt.o.
resources=$(swiftc -print-target-info | sed -n 's/.*"runtimeResourcePath": "\(.*\)".*/\1/p')
shared_runtime=$resources/linux
static_runtime=$(dirname "$resources")/swift_static/linux
swiftrt=$shared_runtime/$(uname -m)/swiftrt.o
for file in "$shared_runtime/libswiftCore.so" "$static_runtime/libswiftCore.a" "$swiftrt"; do
    [ -e "$file" ] || { echo "install.sh: $file not found (is this a Linux Swift toolchain?)" >&2; exit 1; }
done
linker=bfd # gold keeps the hidden symbols, as locals, in .dynsym; nm -D would list them
command -v ld.bfd >/dev/null || linker=lld

if [ "$build" -eq 1 ]; then
    swift build -c $configuration --product BatchGeometryCStatic
fi
archive=$(swift build -c $configuration --show-bin-path)/libBatchGeometryCStatic.a
onone=() # -Onone code calls into libswiftSwiftOnoneSupport
[ "$configuration" = debug ] && onone=("$static_runtime/libswiftSwiftOnoneSupport.a")
[ -f "$archive" ] || { echo "install.sh: $archive not found (run without --no-build)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bg-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/objects"
(cd "$work/objects" && ar x "$archive")
if [ "$(ar t "$archive" | sort | uniq -d)" != "" ]; then
    echo "install.sh: two members of $archive share a name; ar x kept one of them" >&2; exit 1
fi
printf '{\n  global: bg_*;\n  local: *;\n};\n' >"$work/exports.map"

echo "--- lib/$soname"
mkdir -p "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/lib/cmake/BatchGeometry"
clang -fuse-ld=$linker -shared -o "$work/$soname" "$swiftrt" "$work"/objects/*.o "${onone[@]}" \
    "$static_runtime/libswiftDispatch.a" "$static_runtime/libdispatch.a" "$static_runtime/libBlocksRuntime.a" \
    -L"$shared_runtime" -Wl,--as-needed -lswiftCore -lstdc++ -lm -lpthread -Wl,--no-as-needed \
    -Wl,--version-script="$work/exports.map" -Wl,-soname,"$soname" -Wl,-rpath,'$ORIGIN' -Wl,-z,relro,-z,now
echo "--- lib/libbatchgeometry.a"
ld.bfd -r -o "$work/batchgeometry-all.o" "$swiftrt" "$work"/objects/*.o --start-group "${onone[@]}" \
    "$static_runtime/libswiftCore.a" "$static_runtime/libswiftDispatch.a" "$static_runtime/libdispatch.a" \
    "$static_runtime/libBlocksRuntime.a" --end-group
objcopy --wildcard --keep-global-symbol='bg_*' "$work/batchgeometry-all.o" "$work/batchgeometry.o"
if [ "$strip" -eq 1 ]; then
    strip --strip-unneeded "$work/$soname"
    strip --strip-debug "$work/batchgeometry.o"
fi
rm -f "$prefix/lib/libbatchgeometry.a"
ar rcs "$prefix/lib/libbatchgeometry.a" "$work/batchgeometry.o"
install -m 755 "$work/$soname" "$prefix/lib/$soname"
ln -sfn "$soname" "$prefix/lib/libbatchgeometry.so"
install -m 644 "$header" "$prefix/include/batchgeometry.h"

# The toolchain's shared libraries the library needs, and theirs, copied beside it.
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
pending=$(needed "$prefix/lib/$soname")
copied=""
while [ -n "$pending" ]; do
    next=""
    for name in $pending; do
        case " $copied " in *" $name "*) continue ;; esac
        [ -f "$shared_runtime/$name" ] || continue
        install -m 644 "$shared_runtime/$name" "$prefix/lib/$name"
        copied="$copied $name"
        next="$next $(needed "$shared_runtime/$name")"
    done
    pending=$next
done

write_pc() { # name, description, Libs line
    cat >"$prefix/lib/pkgconfig/$1.pc" <<EOF
prefix=$prefix
includedir=\${prefix}/include
libdir=\${prefix}/lib

Name: $1
Description: $2
Version: $version
Cflags: -I\${includedir}
Libs: $3
EOF
}
write_pc batchgeometry "Core Animation layer geometry for millions of layers (C interface, shared library, ABI $abi)" \
    "-L\${libdir} -lbatchgeometry"
write_pc batchgeometry-static "Core Animation layer geometry for millions of layers (C interface, static, Swift runtime inside)" \
    "\${libdir}/libbatchgeometry.a -lstdc++ -lm -lpthread -ldl"

cat >"$prefix/lib/cmake/BatchGeometry/BatchGeometryConfig.cmake" <<EOF
# BatchGeometry $version (ABI $abi), written by scripts/install.sh. Imported targets:
#   BatchGeometry::batchgeometry         the shared library ($soname, its Swift runtime beside it)
#   BatchGeometry::batchgeometry_static  the static library (the Swift runtime inside)
get_filename_component(_batchgeometry_prefix "\${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET BatchGeometry::batchgeometry)
  add_library(BatchGeometry::batchgeometry SHARED IMPORTED)
  set_target_properties(BatchGeometry::batchgeometry PROPERTIES
    IMPORTED_LOCATION "\${_batchgeometry_prefix}/lib/$soname"
    IMPORTED_SONAME "$soname"
    INTERFACE_INCLUDE_DIRECTORIES "\${_batchgeometry_prefix}/include")
endif()
if(NOT TARGET BatchGeometry::batchgeometry_static)
  add_library(BatchGeometry::batchgeometry_static STATIC IMPORTED)
  set_target_properties(BatchGeometry::batchgeometry_static PROPERTIES
    IMPORTED_LOCATION "\${_batchgeometry_prefix}/lib/libbatchgeometry.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "\${_batchgeometry_prefix}/include"
    INTERFACE_LINK_LIBRARIES "stdc++;m;pthread;dl")
endif()
unset(_batchgeometry_prefix)
EOF
cat >"$prefix/lib/cmake/BatchGeometry/BatchGeometryConfigVersion.cmake" <<EOF
# find_package(BatchGeometry X.Y) accepts this $version when X.Y.Z <= $version with the same
# major version (before 1.0: the same minor version too, as the ABI rule allows).
set(PACKAGE_VERSION "$version")
set(PACKAGE_VERSION_COMPATIBLE FALSE)
if(NOT PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION
   AND PACKAGE_FIND_VERSION_MAJOR EQUAL "$(define BG_VERSION_MAJOR)"
   AND ("$(define BG_VERSION_MAJOR)" GREATER 0 OR PACKAGE_FIND_VERSION_MINOR EQUAL "$(define BG_VERSION_MINOR)"))
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
EOF

echo "--- installed in $prefix (version $version, ABI $abi, $configuration build)"
(cd "$prefix" && find include lib -type f -o -type l | sort | while read -r file; do
    if [ -L "$file" ]; then printf '  %-48s -> %s\n' "$file" "$(readlink "$file")"
    else printf '  %-48s %10d bytes\n' "$file" "$(stat -c %s "$file")"; fi
done)
