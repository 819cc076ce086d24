/// How far local time is from UTC at each moment, in whichever form the user's `TZ` gave it: POSIX
/// rules (`CET-1CEST,M3.5.0,M10.5.0/3`), or the table of a zoneinfo file (`Europe/Berlin`,
/// `TZ=:/etc/localtime`, which may be a copy of one; see `ZoneInfo`). Every date todo reads or
/// shows goes through it. (Not Foundation's `TimeZone`: FoundationEssentials knows no zone by name.)
public struct TimeZoneRules: Sendable {
    private enum Storage: Sendable {
        case posix(POSIXTimeZone)
        case table(ZoneTable)
    }

    private let storage: Storage
    /// The zone as the user named it, for messages: `America/New_York`, `EST5EDT,M3.2.0,M11.1.0`.
    public let name: String

    public init(_ posix: POSIXTimeZone, name: String) {
        storage = .posix(posix)
        self.name = name
    }

    /// The rules of a compiled zoneinfo file (TZif, RFC 8536) named `name`; `nil` when the bytes are not one.
    public init?(zoneinfo bytes: [UInt8], name: String) {
        guard let table = ZoneTable(bytes) else { return nil }
        storage = .table(table)
        self.name = name
    }

    /// Rules given by their transitions (a calendar's VTIMEZONE, worked out): the moments the
    /// offset changes, ascending, the offset from each on, and the offset before the first.
    package init(transitions: [Int], offsets: [Int], initialOffset: Int, name: String) {
        storage = .table(
            ZoneTable(transitions: transitions, offsets: offsets, initialOffset: initialOffset, footer: nil))
        self.name = name
    }

    /// The rules the zone follows from its last listed change on, as POSIX rules: a zoneinfo
    /// file's footer, or the rules themselves; `nil` for a table without one.
    package var currentRules: POSIXTimeZone? {
        switch storage {
        case .posix(let posix): posix
        case .table(let table): table.footer
        }
    }

    /// UTC.
    public static let utc = TimeZoneRules(POSIXTimeZone("UTC0")!, name: "UTC")

    /// How many changes of offset the zone lists (a calendar's own zone, a zoneinfo file; 0 for
    /// rules): what looking a moment up costs.
    package var listedChanges: Int {
        if case .table(let table) = storage { table.transitions.count } else { 0 }
    }

    /// Seconds east of UTC at `timestamp`.
    public func secondsFromGMT(at timestamp: Double) -> Int {
        switch storage {
        case .posix(let posix): return posix.offset(at: Self.wholeSeconds(timestamp)).seconds
        case .table(let table): return table.offset(at: Self.wholeSeconds(timestamp))
        }
    }

    /// The offset when it is the same at every moment (UTC, `JST-9`), else `nil`.
    public var fixedOffset: Int? {
        switch storage {
        case .posix(let posix):
            return posix.daylight == nil ? posix.standard.offset : nil
        case .table(let table):
            return table.fixedOffset
        }
    }

    private static func wholeSeconds(_ timestamp: Double) -> Int {
        Int(timestamp.rounded(.down))
    }
}

/// The transitions of a zoneinfo file, and the POSIX rules it gives for the times after them.
private struct ZoneTable: Sendable {
    /// Moments at which the offset changes, ascending, and the offset from each on.
    package let transitions: [Int]
    package let offsets: [Int]
    /// The offset before the first transition.
    package let initialOffset: Int
    package let footer: POSIXTimeZone?

    package func offset(at timestamp: Int) -> Int {
        guard let first = transitions.first, timestamp >= first else { return initialOffset }
        if let footer, timestamp >= transitions.last! { return footer.offset(at: timestamp).seconds }
        // The last transition at or before `timestamp`.
        var low = 0, high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= timestamp { low = middle } else { high = middle - 1 }
        }
        return offsets[low]
    }

    package var fixedOffset: Int? {
        guard Set(offsets + [initialOffset]).count == 1 else { return nil }
        guard let footer else { return initialOffset }
        return footer.daylight == nil && footer.standard.offset == initialOffset ? initialOffset : nil
    }

    package init(transitions: [Int], offsets: [Int], initialOffset: Int, footer: POSIXTimeZone?) {
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.footer = footer
    }

    /// Reads version 1 data, or the 64-bit data and footer of versions 2 and later.
    package init?(_ bytes: [UInt8]) {
        guard bytes.count >= 44, bytes.starts(with: Array("TZif".utf8)) else { return nil }
        let version = bytes[4]
        guard let first = Self.block(bytes, at: 0, timeSize: 4) else { return nil }
        var block = first
        var footer: POSIXTimeZone?
        if version >= UInt8(ascii: "2") {
            guard let second = Self.block(bytes, at: first.end, timeSize: 8) else { return nil }
            block = second
            // The footer is a POSIX TZ string between two line feeds; empty means none.
            let rest = bytes[second.end...]
            if rest.first == 0x0A, let close = rest.dropFirst().firstIndex(of: 0x0A) {
                let text = String(decoding: rest[(rest.startIndex + 1)..<close], as: UTF8.self)
                footer = text.isEmpty ? nil : POSIXTimeZone(text)
            }
        }
        guard !block.types.isEmpty else { return nil }
        self.init(
            transitions: block.times, offsets: block.indices.map { block.types[Int($0)] },
            initialOffset: block.types[0], footer: footer)
    }

    /// One data block: its transition times, their type indices, the types' offsets, and where it ends.
    private static func block(
        _ bytes: [UInt8], at start: Int, timeSize: Int
    ) -> (times: [Int], indices: [UInt8], types: [Int], end: Int)? {
        guard bytes.count >= start + 44, bytes[start..<start + 4].elementsEqual("TZif".utf8) else { return nil }
        func count(_ field: Int) -> Int { Int(integer(bytes, at: start + 20 + 4 * field, size: 4)) }
        let (isUTCCount, isStandardCount, leapCount, timeCount, typeCount, characterCount) =
            (count(0), count(1), count(2), count(3), count(4), count(5))
        let dataStart = start + 44
        let typesStart = dataStart + timeCount * timeSize + timeCount
        let end =
            typesStart + typeCount * 6 + characterCount + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
        guard typeCount >= 1, end <= bytes.count else { return nil }
        let times = (0..<timeCount).map { Int(integer(bytes, at: dataStart + $0 * timeSize, size: timeSize)) }
        let indices = Array(bytes[(dataStart + timeCount * timeSize)..<typesStart])
        guard indices.allSatisfy({ Int($0) < typeCount }) else { return nil }
        let types = (0..<typeCount).map { Int(integer(bytes, at: typesStart + $0 * 6, size: 4)) }
        return (times, indices, types, end)
    }

    /// A big-endian signed integer of `size` bytes.
    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> Int64 {
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
        let shift = UInt64(64 - 8 * size)
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }
}
