#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the lines of a text are: `todo ui` splits a listing of thousands of rows on every
/// change, with `memchr` (a byte-by-byte loop took 2.7 million instructions at 10,000 rows).
package enum TextLines {
    /// The ranges of the lines of `bytes`, without their line feeds; a last line without one counts.
    package static func ranges(in bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count, let found = memchr(base + start, 0x0A, buffer.count - start) {
                let end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                ranges.append(start..<end)
                start = end + 1
            }
            if start < buffer.count { ranges.append(start..<buffer.count) }
        }
        return ranges
    }
}
