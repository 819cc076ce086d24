#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's whole environment, as the C library keeps it (for a command todo runs, which
/// needs `DISPLAY` and the like; todo's own settings are read by name).
package enum ProcessEnvironment {
    /// `NAME=value` entries, a null pointer after the last: what a process started with `posix_spawn` gets.
    static var entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        _NSGetEnviron().pointee
        #else
        environ
        #endif
    }

    package static func all() -> [String: String] {
        var environment: [String: String] = [:]
        var index = 0
        while let entry = entries?[index] {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            index += 1
        }
        return environment
    }
}
