import ToDoModel

/// Bytes in memory this object allocated itself and frees when it goes. A pointer into them stays
/// valid for as long as the object lives, which a pointer taken from an array's
/// `withUnsafeBufferPointer` is not promised to be once the closure returns: items read from the
/// list point into the list's text (`StoredText`), and the file is read straight into this memory,
/// so that holding it costs no copy.
package final class UnsafeOwnedBytes: @unchecked Sendable {
    package private(set) var start: UnsafeMutablePointer<UInt8>
    /// How many bytes hold data; the rest of `capacity` is uninitialized.
    package private(set) var count = 0
    package private(set) var capacity: Int

    /// Room for `capacity` bytes, none of them initialized yet.
    package init(capacity: Int) {
        self.capacity = max(capacity, 1)
        start = .allocate(capacity: self.capacity)
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
        start.deallocate()
    }

    package var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

    /// The room after the bytes, for `fill` to write into; it returns how many it wrote.
    package func append<Failure: Error>(upTo extra: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) throws(Failure) -> Int) throws(Failure) {
        if count + extra > capacity { grow(to: max(count + extra, capacity * 2)) }
        let written = try fill(UnsafeMutableBufferPointer(start: start + count, count: extra))
        count += min(max(written, 0), extra)
    }

    /// The bytes as an array (a copy), for readers that want one.
    package var array: [UInt8] { Array(buffer) }

    private func grow(to newCapacity: Int) {
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        larger.moveInitialize(from: start, count: count)
        start.deallocate()
        start = larger
        capacity = newCapacity
    }
}
