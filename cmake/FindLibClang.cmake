# Locates libclang (C API) from LLVM 17 or newer.
# Order: -DLIBCLANG_ROOT=..., llvm-config-19/18/17 or llvm-config on PATH,
# the Debian/Ubuntu locations /usr/lib/llvm-{19,18,17}.
# Defines the imported target LibClang::LibClang and LIBCLANG_RESOURCE_DIR
# (clang's builtin headers, needed to parse CUDA device code).
set(_hms_llvm_hints "")
if(LIBCLANG_ROOT)
  list(APPEND _hms_llvm_hints ${LIBCLANG_ROOT})
endif()
foreach(_cfg llvm-config-19 llvm-config-18 llvm-config-17 llvm-config)
  find_program(_hms_llvm_config_${_cfg} ${_cfg})
  if(_hms_llvm_config_${_cfg})
    execute_process(COMMAND ${_hms_llvm_config_${_cfg}} --version
                    OUTPUT_VARIABLE _ver OUTPUT_STRIP_TRAILING_WHITESPACE)
    string(REGEX MATCH "^[0-9]+" _major "${_ver}")
    if(_major GREATER_EQUAL 17)
      execute_process(COMMAND ${_hms_llvm_config_${_cfg}} --prefix
                      OUTPUT_VARIABLE _prefix OUTPUT_STRIP_TRAILING_WHITESPACE)
      list(APPEND _hms_llvm_hints ${_prefix})
    endif()
  endif()
endforeach()
list(APPEND _hms_llvm_hints /usr/lib/llvm-19 /usr/lib/llvm-18 /usr/lib/llvm-17
     /usr/local/opt/llvm /opt/homebrew/opt/llvm)

set(LIBCLANG_INCLUDE_DIR "")
set(LIBCLANG_LIBRARY "")
foreach(_root ${_hms_llvm_hints})
  if(EXISTS "${_root}/include/clang-c/Index.h")
    find_library(_hms_lib NAMES clang libclang PATHS "${_root}/lib" NO_DEFAULT_PATH)
    if(_hms_lib)
      set(LIBCLANG_INCLUDE_DIR "${_root}/include")
      set(LIBCLANG_LIBRARY "${_hms_lib}")
      set(LIBCLANG_PREFIX "${_root}")
      break()
    endif()
  endif()
endforeach()

if(NOT LIBCLANG_LIBRARY)
  message(FATAL_ERROR
    "libclang (LLVM >= 17) not found. On Debian/Ubuntu: apt-get install libclang-19-dev clang-19\n"
    "Elsewhere pass -DLIBCLANG_ROOT=<llvm prefix> (the directory holding include/clang-c/Index.h).")
endif()

# The CINDEX version tells us the LLVM major; reject older than 17.
file(STRINGS "${LIBCLANG_INCLUDE_DIR}/clang-c/Index.h" _minor_line
     REGEX "#define CINDEX_VERSION_MINOR [0-9]+")
string(REGEX MATCH "[0-9]+$" LIBCLANG_CINDEX_MINOR "${_minor_line}")
if(LIBCLANG_CINDEX_MINOR LESS 64)
  message(FATAL_ERROR "libclang at ${LIBCLANG_PREFIX} is older than LLVM 17 "
                      "(CINDEX_VERSION_MINOR ${LIBCLANG_CINDEX_MINOR}); install libclang-19-dev.")
endif()

# clang's resource directory (lib/clang/<major>) holds the builtin headers.
file(GLOB _res_dirs "${LIBCLANG_PREFIX}/lib/clang/*")
list(SORT _res_dirs)
list(REVERSE _res_dirs)
set(LIBCLANG_RESOURCE_DIR "")
foreach(_d ${_res_dirs})
  if(EXISTS "${_d}/include/stddef.h")
    set(LIBCLANG_RESOURCE_DIR "${_d}")
    break()
  endif()
endforeach()
message(STATUS "libclang: ${LIBCLANG_LIBRARY} (resource dir ${LIBCLANG_RESOURCE_DIR})")

add_library(LibClang::LibClang UNKNOWN IMPORTED)
set_target_properties(LibClang::LibClang PROPERTIES
  IMPORTED_LOCATION "${LIBCLANG_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${LIBCLANG_INCLUDE_DIR}")
