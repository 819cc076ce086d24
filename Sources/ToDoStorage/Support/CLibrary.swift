// The C library (the POSIX calls the store makes), for this module and ToDoCore, which imports it
// with ToDoStorage. Files of this module import it themselves; the CLI's import it where they call it.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif
