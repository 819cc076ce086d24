import ToDoModel

/// A key whose own bits make a good enough hash: a random UUID, or a number once spread.
package protocol KeySetElement: Equatable {
    var keyBits: UInt64 { get }
}

extension UUID: KeySetElement {
    package var keyBits: UInt64 {
        withUnsafeBytes(of: uuid) { $0.load(as: UInt64.self) ^ $0.load(fromByteOffset: 8, as: UInt64.self) }
    }
}

extension Int: KeySetElement {
    package var keyBits: UInt64 { UInt64(bitPattern: Int64(self)) }
}

/// A set of ids or numbers for the uniqueness checks, which look at every item each time a list is
/// read. The standard `Set` seeds a SipHash for every key, which took a fifth of the time to read a
/// list; this open-addressing table (linear probing, removal by shifting back) only multiplies the
/// key's bits. It gives up the standard set's protection against keys chosen to collide, which only
/// someone who can already write the list could choose.
///
/// Keys whose bits are below a limit given at creation are kept as bits of a bitmap instead: item
/// numbers are dense, from 1 to about the number of items, and a bitmap of them is a few kilobytes
/// read in order, where a table is megabytes read at random.
///
/// The type itself asks nothing of its keys (its methods do): a type that holds one, in another
/// target, then has its layout without the run time looking the key's conformance up, which the
/// first time means reading every conformance in the program.
package struct KeySet<Element> {
    private var slots: [Element?]
    package private(set) var count = 0
    /// How many keys are in `slots`.
    private var tableCount = 0
    /// Bit `n` is set when the key with bits `n` is in the set; for keys below `dense.count * 64`.
    private var dense: [UInt64]
}

extension KeySet: Sendable where Element: Sendable {}

extension KeySet where Element: KeySetElement {

    /// A set with room for `minimumCapacity` keys, which keeps keys below `denseBelow` in a bitmap.
    package init(minimumCapacity: Int = 0, denseBelow: Int = 0) {
        slots = Array(repeating: nil, count: Self.slotCount(for: minimumCapacity))
        dense = Array(repeating: 0, count: (max(denseBelow, 0) + 63) / 64)
    }

    package func contains(_ element: Element) -> Bool {
        if let (word, bit) = denseBit(of: element) { return dense[word] & bit != 0 }
        var slot = home(of: element)
        while let occupant = slots[slot] {
            if occupant == element { return true }
            slot = next(slot)
        }
        return false
    }

    /// Adds `element`; false when it was already there.
    @discardableResult
    package mutating func insert(_ element: Element) -> Bool {
        if let (word, bit) = denseBit(of: element) {
            guard dense[word] & bit == 0 else { return false }
            dense[word] |= bit
            count += 1
            return true
        }
        if (tableCount + 1) * 2 > slots.count { grow() }
        var slot = home(of: element)
        while let occupant = slots[slot] {
            if occupant == element { return false }
            slot = next(slot)
        }
        slots[slot] = element
        count += 1
        tableCount += 1
        return true
    }

    /// Where `element` is in the bitmap, if it belongs there.
    private func denseBit(of element: Element) -> (word: Int, bit: UInt64)? {
        let bits = element.keyBits
        guard bits < UInt64(dense.count) &* 64 else { return nil }
        return (Int(bits >> 6), 1 << (bits & 63))
    }

    package mutating func remove(_ element: Element) {
        if let (word, bit) = denseBit(of: element) {
            if dense[word] & bit != 0 { count -= 1 }
            dense[word] &= ~bit
            return
        }
        var slot = home(of: element)
        while let occupant = slots[slot] {
            if occupant == element { break }
            slot = next(slot)
        }
        guard slots[slot] != nil else { return }
        slots[slot] = nil
        count -= 1
        tableCount -= 1
        // Moves back each following key that the gap now cuts off from its home slot.
        var gap = slot, candidate = slot
        while true {
            candidate = next(candidate)
            guard let occupant = slots[candidate] else { return }
            let home = home(of: occupant)
            let homeIsAfterGap =
                gap <= candidate ? (gap < home && home <= candidate) : (gap < home || home <= candidate)
            if !homeIsAfterGap {
                slots[gap] = occupant
                slots[candidate] = nil
                gap = candidate
            }
        }
    }

    /// The slot a key belongs in: its bits mixed so that every bit reaches the low bits that pick
    /// the slot (MurmurHash3's finalizer). A plain multiply carries low bits up only, so ids that
    /// differ only in their high bits (sequential UUIDs, `…0001`, `…0002`) all shared one slot and
    /// made every command quadratic.
    private func home(of element: Element) -> Int {
        var bits = element.keyBits
        bits = (bits ^ (bits >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        bits = (bits ^ (bits >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        bits ^= bits >> 33
        return Int(truncatingIfNeeded: bits) & (slots.count - 1)
    }

    /// The longest way any key lies from its home slot: what a look-up costs at worst.
    package var longestProbe: Int {
        var longest = 0
        for (slot, occupant) in slots.enumerated() {
            guard let occupant else { continue }
            longest = max(longest, (slot - home(of: occupant) + slots.count) & (slots.count - 1))
        }
        return longest
    }

    private func next(_ slot: Int) -> Int { (slot + 1) & (slots.count - 1) }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: old.count * 2)
        count -= tableCount
        tableCount = 0
        for case let element? in old { insert(element) }
    }

    /// A power of two at least twice `count`, so that probe runs stay short.
    private static func slotCount(for count: Int) -> Int {
        var slots = 16
        while slots < count * 2 { slots <<= 1 }
        return slots
    }
}

/// The ids of items, as a `KeySet`, for the targets above this one: a concrete type, so that its
/// code runs specialised when another module calls it (a generic type's would not be).
package struct IDSet: Sendable {
    private var keys: KeySet<UUID>

    package init(minimumCapacity: Int = 0) {
        keys = KeySet(minimumCapacity: minimumCapacity)
    }

    package var count: Int { keys.count }
    package func contains(_ id: UUID) -> Bool { keys.contains(id) }
    /// Adds `id`; false when it was already there.
    @discardableResult
    package mutating func insert(_ id: UUID) -> Bool { keys.insert(id) }
    package mutating func remove(_ id: UUID) { keys.remove(id) }
}

/// Item numbers, as a `KeySet` that keeps those below a bound in a bitmap, for the targets above
/// this one (see `IDSet`).
package struct NumberSet: Sendable {
    private var keys: KeySet<Int>

    package init(denseBelow: Int) {
        keys = KeySet(denseBelow: denseBelow)
    }

    /// Adds `number`; false when it was already there.
    package mutating func insert(_ number: Int) -> Bool { keys.insert(number) }
}
