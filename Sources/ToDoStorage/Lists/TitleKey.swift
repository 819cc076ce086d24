import ToDoModel

/// A number that is the same for any two titles `==` calls equal, made without `String`'s seeded
/// hash and, for a title still in its written form, without making a `String` at all: adding an
/// item looks up the titles of every open item.
///
/// `String` equality is canonical equivalence. A title whose normalized form is plain ASCII is
/// keyed by those bytes (`asciiKey`): ASCII text is its own normalized form, and the only other
/// characters that normalize to ASCII are the three of `asciiEquivalent(of:)` (a test checks every
/// Unicode scalar), so replacing them gives the normalized form. Any other title is keyed by
/// `String`'s own hash, which hashes the normalized form (`otherKey`); such a title never equals
/// one with an ASCII key, so the two kinds are looked up apart (`TitleKeySet`), and a list of
/// ASCII titles never hashes its other titles. Unequal titles may share a key: a key only says
/// which titles need comparing.
package enum TitleKey {
    /// The non-ASCII scalars whose canonical decomposition is ASCII: KELVIN SIGN, GREEK QUESTION
    /// MARK and GREEK VARIA.
    package static func asciiEquivalent(of scalar: Unicode.Scalar) -> UInt8? {
        switch scalar.value {
        case 0x212A: UInt8(ascii: "K")
        case 0x037E: UInt8(ascii: ";")
        case 0x1FEF: UInt8(ascii: "`")
        default: nil
        }
    }

    /// The key of a title whose normalized form is ASCII, from its UTF-8 bytes; else `nil`.
    static func asciiKey(ofUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let firstOther = bytes.firstIndex(where: { $0 >= 0x80 }) else { return asciiKey(bytes) }
        // Most titles that are not ASCII have no equivalent: told by the bytes of their first
        // other scalar (the three above are E2 84 AA, CD BE and E1 BF AF in UTF-8).
        guard [0xE2, 0xCD, 0xE1].contains(bytes[firstOther]) else { return nil }
        var folded: [UInt8] = []
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if scalar.isASCII {
                folded.append(UInt8(scalar.value))
            } else if let ascii = asciiEquivalent(of: scalar) {
                folded.append(ascii)
            } else {
                return nil
            }
        }
        return folded.withUnsafeBufferPointer(asciiKey)
    }

    /// The key of a title that has no ASCII key.
    package static func otherKey(of title: String) -> Int {
        title.hashValue
    }

    /// The key of a title that is the ASCII `bytes`: FNV-1a over eight bytes at a time.
    static func asciiKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var offset = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while bytes.count - offset >= 8 {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x0000_0100_0000_01B3
            offset += 8
        }
        var tail: UInt64 = 0
        for index in offset..<bytes.count { tail = tail << 8 | UInt64(bytes[index]) }
        hash = (hash ^ tail ^ UInt64(bytes.count) << 56) &* 0x0000_0100_0000_01B3
        return Int(truncatingIfNeeded: hash ^ hash >> 29)
    }
}

/// The `TitleKey`s of the titles of open items, for the same-content rule: a title not here is
/// no open item's. Those with an ASCII key are gathered on the first check that needs them, the
/// others on the first check of a title without one. A key stays after its item is checked,
/// removed or retitled: at worst a look finds nothing.
package struct TitleKeySet: Sendable {
    package init() {}

    /// The ASCII keys, in one set per part of the open items they were gathered from (the halves
    /// of a long list, `Parallelism`), titles added since going to the last.
    private var ascii: [KeySet<Int>]?
    private var other: KeySet<Int>?
    /// The ASCII keys in an index's records (`init(keysOf:)`) and those of titles added since,
    /// not yet in a set: the first look-up reads them through, the second puts them in `ascii`.
    /// One `add` then makes no set of 100,000 keys for one look-up.
    private var asciiNotInSet: (records: UnsafeIndexedItems, added: [Int])?
    private var lookedThroughOnce = false

    /// Whether an item of `openItems` (the open items, all of which were inserted since the set
    /// was made) may have `title`'s key.
    package mutating func mayContain(titleOf item: StoredItem, among openItems: StoredItemArray) -> Bool {
        if let key = item.asciiTitleKey {
            if ascii == nil, let keys = asciiNotInSet {
                if !lookedThroughOnce {
                    lookedThroughOnce = true
                    return keys.added.contains(key)
                        || keys.records.indices.contains { keys.records.asciiTitleKey(at: $0) == key }
                }
                var set = KeySet<Int>(minimumCapacity: keys.records.count + keys.added.count)
                for position in keys.records.indices {
                    if let key = keys.records.asciiTitleKey(at: position) { set.insert(key) }
                }
                for key in keys.added { set.insert(key) }
                ascii = [set]
                asciiNotInSet = nil
            }
            if ascii == nil {
                // Through the buffer: iterating the array would copy (and retain) every item.
                ascii = openItems.withItemsInBuffer { openItems in
                    BackgroundWork.inTwoHalves(
                        openItems.count, minimumCount: Parallelism.gatherTitleKeysInTwoHalvesMinimumCount
                    ) { range in
                        Self.asciiKeys(of: openItems[range])
                    }
                }
            }
            return ascii?.contains { $0.contains(key) } == true
        }
        if other == nil {
            var keys = KeySet<Int>()
            for index in openItems.indicesWithoutASCIITitleKey() {
                keys.insert(TitleKey.otherKey(of: openItems[index].title))
            }
            other = keys
        }
        return other?.contains(TitleKey.otherKey(of: item.title)) == true
    }

    /// The ASCII keys of the titles of `items`.
    private static func asciiKeys(of items: Slice<UnsafeBufferPointer<StoredItem>>) -> KeySet<Int> {
        var keys = KeySet<Int>(minimumCapacity: items.count)
        for item in items { if let key = item.asciiTitleKey { keys.insert(key) } }
        return keys
    }

    /// Notes the title of an item that became open, in the sets already made.
    package mutating func insert(titleOf item: StoredItem) {
        guard ascii != nil || other != nil || asciiNotInSet != nil else { return }
        if let key = item.asciiTitleKey {
            if let last = ascii?.indices.last { ascii?[last].insert(key) }
            asciiNotInSet?.added.append(key)
        } else {
            other?.insert(TitleKey.otherKey(of: item.title))
        }
    }

    /// The set of the open items of `records`, whose ASCII keys the records hold (`ListIndex`):
    /// the others' are gathered when a check needs them.
    init(keysOf records: UnsafeIndexedItems) {
        asciiNotInSet = (records, [])
    }

    /// The set of `items`, open ones, when they are their records' items unchanged (read through
    /// the list's index): their ASCII keys are the records'. `nil` for other items.
    package init?(keysOfRecordsBehind items: StoredItemArray) {
        guard let records = items.unchangedRecords else { return nil }
        self.init(keysOf: records)
    }

    /// An empty set for an empty list: nothing to gather.
    package static var empty: TitleKeySet {
        var set = TitleKeySet()
        set.ascii = [KeySet()]
        set.other = KeySet()
        return set
    }
}
