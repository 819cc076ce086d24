import ToDoModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes in memory this object allocated (or mapped) itself and frees when it goes; other targets
/// see only safe values (its count, a copy, its digest), never where the bytes are. A pointer into
/// them stays valid for as long as the object lives, which a pointer taken from an array's
/// `withUnsafeBufferPointer` is not promised to be once the closure returns: items read from the
/// list point into the list's text (`StoredText`), and the file is read straight into this memory,
/// so that holding it costs no copy.
package final class OwnedBytes: @unchecked Sendable {
    private(set) var start: UnsafeMutablePointer<UInt8>
    /// How many bytes hold data; the rest of `capacity` is uninitialized.
    package private(set) var count = 0
    package private(set) var capacity: Int
    /// Whether the bytes are a file's, mapped read-only (`init(mapping:count:)`), not allocated.
    package let isMapped: Bool

    /// Room for `capacity` bytes, none of them initialized yet.
    package init(capacity: Int) {
        self.capacity = max(capacity, 1)
        start = .allocate(capacity: self.capacity)
        isMapped = false
    }

    /// The first `count` bytes of the open file `descriptor`, mapped read-only and private
    /// instead of read: the pages are the kernel's cache of the file itself, never copied or
    /// zeroed, and only those touched are mapped in. Reading a 27 MB list into fresh memory took
    /// longer than all the rest of `todo add`, which touches a few of its items. `nil` when the
    /// file cannot be mapped (then it is read). The file must not be cut short while mapped: todo
    /// only ever replaces a list by renaming, and a process touching a page another program cut off
    /// gets SIGBUS, which `todo` reports as an unreadable list (ProcessMemory.c).
    package init?(mapping descriptor: Int32, count: Int) {
        guard count > 0, let mapping = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0),
            mapping != UnsafeMutableRawPointer(bitPattern: -1)
        else { return nil }
        start = mapping.assumingMemoryBound(to: UInt8.self)
        self.count = count
        capacity = count
        isMapped = true
    }

    /// A copy of `bytes`.
    package convenience init(copying bytes: [UInt8]) {
        self.init(capacity: bytes.count)
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { start.initialize(from: base, count: source.count) }
        }
        count = bytes.count
    }

    deinit {
        if isMapped { munmap(start, capacity) } else { start.deallocate() }
    }

    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    /// Lets go of the pages wholly within `range` of a mapped file, as the kernel sees this
    /// process's memory: they stay in the kernel's cache of the file, and touching them again
    /// maps them again. A command that made every item from a long list's index reads no more
    /// of it, and need not count its megabytes while it writes the list out. Nothing for bytes
    /// that are not mapped.
    package func releasePages(in range: Range<Int>) {
        guard isMapped else { return }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let base = Int(bitPattern: start)
        let first = (base + range.lowerBound + pageSize - 1) / pageSize * pageSize,
            end = (base + range.upperBound) / pageSize * pageSize
        guard end > first, let address = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(address, end - first, Int32(MADV_DONTNEED))
    }

    /// The room after the bytes, for `fill` to write into; it returns how many it wrote.
    func append<Failure: Error>(
        upTo extra: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) throws(Failure) -> Int
    ) throws(Failure) {
        precondition(!isMapped, "a mapped file's bytes are read-only")
        if count + extra > capacity { grow(to: max(count + extra, capacity * 2)) }
        let written = try fill(UnsafeMutableBufferPointer(start: start + count, count: extra))
        count += min(max(written, 0), extra)
    }

    /// The bytes as an array (a copy), for readers that want one.
    package var array: [UInt8] { Array(buffer) }

    /// `FileSystem.digest(of:)` of the bytes.
    package var digest: UInt64 { withExtendedLifetime(self) { FileSystem.digest(of: buffer) } }

    private func grow(to newCapacity: Int) {
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        larger.moveInitialize(from: start, count: count)
        start.deallocate()
        start = larger
        capacity = newCapacity
    }
}
