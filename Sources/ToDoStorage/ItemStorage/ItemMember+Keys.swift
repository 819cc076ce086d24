import ToDoModel

/// The members of an item as a reader of todo's layouts looks them up: each told from its key's
/// bytes by one look in a table made from the members' keys, then one compare, with what its
/// value is beside it. Every item of a list has several members; a reader takes the table once
/// (`MemberKeys.table`) for all of an item's.
struct MemberKeys {
    /// What a reader needs of a member, read from the table once (`ItemMember.key`, `value`,
    /// `alternative` are each a `switch` in another module): plain values, copied without a
    /// reference counted.
    struct Entry {
        let member: ItemMember
        let key: StaticString
        let value: FileValue
        let alternative: ItemMember?
    }

    /// Each slot's entry: the member whose key's length and first and last bytes lead there.
    private let slots: [Entry?]
    private let lengthMultiplier: Int, firstMultiplier: Int
    private static let slotCount = 128

    static let table = MemberKeys()

    /// Finds the first multipliers that give every member a slot of its own (once, when first
    /// asked for: a new member needs no code here).
    private init() {
        let entries = ItemMember.allCases.map { member in
            Entry(member: member, key: member.key, value: member.value, alternative: member.alternative)
        }
        let keys = entries.map { entry in
            (
                count: entry.key.utf8CodeUnitCount, first: entry.key.utf8Start[0],
                last: entry.key.utf8Start[entry.key.utf8CodeUnitCount - 1]
            )
        }
        // The search marks slots in two words: a few hundred tries, no allocation.
        for lengthMultiplier in 1..<Self.slotCount {
            for firstMultiplier in 1..<Self.slotCount {
                var used: (UInt64, UInt64) = (0, 0)
                let isOneToOne = keys.allSatisfy { key in
                    let slot = Self.slot(key.count, key.first, key.last, lengthMultiplier, firstMultiplier)
                    let bit: UInt64 = 1 << (slot & 63)
                    if slot < 64 {
                        defer { used.0 |= bit }
                        return used.0 & bit == 0
                    }
                    defer { used.1 |= bit }
                    return used.1 & bit == 0
                }
                guard isOneToOne else { continue }
                var slots = [Entry?](repeating: nil, count: Self.slotCount)
                for (entry, key) in zip(entries, keys) {
                    slots[Self.slot(key.count, key.first, key.last, lengthMultiplier, firstMultiplier)] = entry
                }
                (self.slots, self.lengthMultiplier, self.firstMultiplier) = (slots, lengthMultiplier, firstMultiplier)
                return
            }
        }
        // (Never for keys of todo's kind, `ItemMemberTests` checks: every key is then compared in turn.)
        (slots, lengthMultiplier, firstMultiplier) = (entries, 0, 0)
    }

    /// Whether every member has a slot of its own (else keys are compared in turn).
    var isOneToOne: Bool { lengthMultiplier != 0 }

    /// The entry of the member whose key is `key`, else `nil`.
    @inline(__always)
    func entry(for key: UnsafeBufferPointer<UInt8>) -> Entry? {
        guard key.count >= 2, let base = key.baseAddress else { return nil }
        guard isOneToOne else {
            return slots.first { $0.map { Self.isKey($0.key, base, key.count) } ?? false } ?? nil
        }
        guard let entry = slots[Self.slot(key.count, key[0], key[key.count - 1], lengthMultiplier, firstMultiplier)],
            Self.isKey(entry.key, base, key.count)
        else { return nil }
        return entry
    }

    /// The member whose key is `key`, else `nil`.
    func member(for key: UnsafeBufferPointer<UInt8>) -> ItemMember? { entry(for: key)?.member }

    @inline(__always)
    private static func isKey(_ name: StaticString, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        name.utf8CodeUnitCount == count && isSameBytes(UnsafeRawPointer(bytes), name)
    }

    @inline(__always)
    private static func slot(_ count: Int, _ first: UInt8, _ last: UInt8, _ length: Int, _ firstByte: Int) -> Int {
        (count &* length &+ Int(first) &* firstByte &+ Int(last)) & (slotCount - 1)
    }
}

/// A member's key as the exact written form has it after the member before, `,"title":`, held as
/// words to compare with the text in one to three loads (`isNext`).
struct WrittenKey {
    let member: ItemMember
    let value: FileValue
    let alternative: ItemMember?
    let isAlwaysWritten: Bool
    let count: Int
    private let first: UInt64, middle: UInt64, last: UInt64

    init(_ member: ItemMember) {
        self.member = member
        value = member.value
        alternative = member.alternative
        isAlwaysWritten = member.isAlwaysWritten
        let bytes = Array(",\"\(member.key)\":".utf8)
        count = bytes.count
        // Zeros past the end, for keys shorter than a word.
        let padded = bytes + [UInt8](repeating: 0, count: 24)
        func word(at offset: Int) -> UInt64 {
            padded.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        }
        first = word(at: 0)
        middle = word(at: 8)
        last = count >= 8 ? word(at: count - 8) : UInt64(truncatingIfNeeded: word(at: count - 4))
    }

    /// Whether the key comes next in `scanner`'s text (keys are 6 to 24 bytes: `WrittenKeyTests`).
    @inline(__always)
    func isNext(in scanner: JSONScanner) -> Bool {
        guard scanner.bytes.count - scanner.index >= count else { return false }
        let here = UnsafeRawPointer(scanner.bytes.baseAddress! + scanner.index)
        if count >= 8 {
            return here.loadUnaligned(as: UInt64.self) == first
                && here.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == last
                && (count <= 16 || here.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == middle)
        }
        return here.loadUnaligned(as: UInt32.self) == UInt32(truncatingIfNeeded: first)
            && here.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == UInt32(truncatingIfNeeded: last)
    }
}
