// The C library (the POSIX calls the store and the command line make), for every module above this
// one. Files of this module import it themselves.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif
