import ToDoModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A shortcut for reading the items of a list. `write(to:)` gives every item one form: its known
/// keys in their order, no white space, the writer's own escapes and digits. An item in exactly
/// that form is checked here by expecting each key's bytes in turn, and kept as where its fields
/// are (`UnsafeWrittenForm`): nothing is decoded until asked for, and an unchanged item is written
/// back by copying its bytes. An item laid out by another program (white space, another key order,
/// other escapes) whose members are todo's own and whose numbers are spelled as the writer spells
/// them is kept the same way, though never copied back. Anything else (a field this version does
/// not know, another spelling of a number, a value out of range, a syntax error) leaves the item to
/// `ToDoItem.init(scanning:path:)`, which gives the precise error or the decoded item: the shortcut
/// only accepts what the general reader reads the same way, and copies only what the writer would
/// write byte for byte (`ToDoItemWrittenFormTests` checks both on random, re-laid-out and mutated
/// items).
package enum WrittenFormReader {
    /// The longest item kept as where its fields are: offsets are 16 bits (`UnsafeWrittenForm.Offset`),
    /// and an item with a description of 64 KB is rare enough to decode.
    static let longestItem = Int(UnsafeWrittenForm.Offset.max)

    /// Where the item that comes next is, if it is in the exact written form, else `nil` with
    /// nothing consumed. Plain values only, so that another thread can look (`BackgroundItemScan`).
    package static func item(_ scanner: inout JSONScanner) -> WrittenItem? {
        let start = scanner.index
        // The exact form starts as no other layout's item does (told here, before a call that
        // an item of another layout made for nothing).
        if scanner.isAt(exactItemStart) {
            if let item = readWrittenItem(&scanner) { return item }
            scanner.index = start
        }
        if let item = readItemInOtherLayout(&scanner) { return item }
        scanner.index = start
        return nil
    }

    /// An item laid out as another program writes it (white space, keys in another order: Python's
    /// `json.dump`, `jq`, a hand edit), when its members are todo's own and its values are such as
    /// the exact form accepts, or any location the general reader reads. Kept as where its fields
    /// are, as an item in the exact form is, so that a list in another layout reads about as fast;
    /// its bytes are never copied back (`UnsafeWrittenForm.isExact`).
    private static func readItemInOtherLayout(_ scanner: inout JSONScanner) -> WrittenItem? {
        let start = scanner.index
        var id: UUID?, number = 0
        var offsets = UnsafeWrittenForm.Offsets()
        /// The members met so far, one bit each: a member met twice is an error for the general reader.
        var met: UInt64 = 0
        let table = MemberKeys.table
        let isObject = members(&scanner) { key, scanner in
            // A member this version does not know is kept by the general reader.
            guard let entry = table.entry(for: key), met & 1 << entry.member.rawValue == 0 else { return false }
            met |= 1 << entry.member.rawValue
            switch entry.member {
            case .id:
                id = uuid(&scanner)
                return id != nil
            case .number:
                guard case .integer(let value)? = try? scanner.scanNumber(),
                    (1...ToDoItem.largestNumber).contains(value)
                else { return false }
                number = value
                return true
            default:
                // A due or a start is a time or a day, not both.
                if let other = entry.alternative, offsets.has(other) { return false }
                offsets[entry.member] = UnsafeWrittenForm.Offset(truncatingIfNeeded: scanner.index - start)
                return skipValue(entry.value, &scanner)
            }
        }
        guard isObject, let id, offsets.has(.title), scanner.index - start <= longestItem else { return nil }
        let done = offsets.has(.done) && scanner.bytes[start + Int(offsets[.done])] == UInt8(ascii: "t")
        return WrittenItem(
            id: id, number: number, done: done, range: start..<scanner.index, offsets: offsets, isExact: false)
    }

    /// Moves past a value laid out as another program may write it, when it is one the general
    /// reader reads as todo's own, the same way.
    @inline(__always)
    private static func skipValue(_ value: FileValue, _ scanner: inout JSONScanner) -> Bool {
        switch value {
        case .text: skipString(&scanner)
        case .time: number(&scanner, in: ToDoItem.timestampRange) != nil
        case .day: skipDay(&scanner)
        case .flag, .mark: (try? scanner.scanBool()) != nil
        case .whole(let range): whole(&scanner, in: range) != nil
        case .id: uuid(&scanner) != nil
        case .texts: skipTags(&scanner, string: skipString)
        case .place: locationPartsInOtherLayout(&scanner) != nil
        case .alarms: alarms(&scanner) != nil
        // Read by the general reader.
        case .notes, .calendarLines, .programs: false
        }
    }

    /// How an item in the exact written form starts.
    private static let exactItemStart: StaticString = "{\"id\":\""

    /// The members the exact form may have after the id and the number, in the order the writer
    /// writes them, that this shortcut reads (`skipWrittenValue`).
    private static let writtenKeys = ItemMember.allCases.filter { member in
        member.isWritten && member != .id && member != .number
            && ![.notes, .calendarLines, .programs].contains(member.value)
    }.map(WrittenKey.init)

    private static func readWrittenItem(_ scanner: inout JSONScanner) -> WrittenItem? {
        let start = scanner.index
        guard scanner.consume(exactItemStart) else { return nil }
        let idStart = scanner.index
        // The writer writes ids in upper case.
        guard scanner.bytes.count - idStart > 36, scanner.bytes[idStart + 36] == UInt8(ascii: "\""),
            let id = UUID(
                canonical: UnsafeBufferPointer(rebasing: scanner.bytes[idStart..<idStart + 36]), upperCaseOnly: true)
        else { return nil }
        scanner.index += 37

        var number = 0
        if scanner.consume(",\"number\":") {
            // The writer writes numbers as plain integers.
            guard scanner.index < scanner.bytes.count, scanner.isDigit(scanner.bytes[scanner.index]),
                case .integer(let value)? = try? scanner.scanNumber(), (1...ToDoItem.largestNumber).contains(value)
            else { return nil }
            number = value
        }
        var offsets = UnsafeWrittenForm.Offsets()
        for key in writtenKeys {
            guard key.isNext(in: scanner) else {
                if key.isAlwaysWritten { return nil }
                continue
            }
            scanner.index += key.count
            // A due or a start is a time or a day, not both: the writer writes one.
            if let other = key.alternative, offsets.has(other) { return nil }
            offsets[key.member] = UnsafeWrittenForm.Offset(truncatingIfNeeded: scanner.index - start)
            guard skipWrittenValue(key.value, &scanner) else { return nil }
        }
        guard scanner.consume("}"), scanner.index - start <= longestItem else { return nil }
        let done = scanner.bytes[start + Int(offsets[.done])] == UInt8(ascii: "t")
        return WrittenItem(
            id: id, number: number, done: done, range: start..<scanner.index, offsets: offsets, isExact: true)
    }

    /// Moves past a value written exactly as the writer writes it (`ToDoItem.write(to:)`).
    @inline(__always)
    private static func skipWrittenValue(_ value: FileValue, _ scanner: inout JSONScanner) -> Bool {
        switch value {
        case .text: skipWrittenString(&scanner)
        case .time: number(&scanner, in: ToDoItem.timestampRange) != nil
        case .day: skipDay(&scanner)
        case .flag: scanner.consume("true") || scanner.consume("false")
        case .mark: scanner.consume("true")
        // The writer writes plain digits.
        case .whole(let range):
            scanner.index < scanner.bytes.count && scanner.isDigit(scanner.bytes[scanner.index])
                && whole(&scanner, in: range) != nil
        case .id: uuid(&scanner, upperCaseOnly: true) != nil
        // The writer writes no empty list, and no white space.
        case .texts:
            scanner.index + 1 < scanner.bytes.count && scanner.bytes[scanner.index + 1] != UInt8(ascii: "]")
                && skipTags(&scanner, string: skipWrittenString, allowsWhitespace: false)
        case .place: skipWrittenLocation(&scanner)
        case .alarms: skipWrittenAlarms(&scanner)
        case .notes, .calendarLines, .programs: false
        }
    }

    /// Where the strings of the location that comes next start, and its coordinate, when it is
    /// laid out as another program writes it (`readItemInOtherLayout`): todo's members only, in any
    /// order, with white space, its numbers as the writer spells them. Else `nil`.
    package static func locationPartsInOtherLayout(
        _ scanner: inout JSONScanner
    ) -> (name: Int, address: Int?, coordinate: Coordinate?)? {
        var name: Int?, address: Int?, latitude: Double?, longitude: Double?
        var hasCoordinate = false
        let isObject = members(&scanner) { key, scanner in
            switch JSONStringToken.raw(key) {
            case "name" where name == nil:
                name = scanner.index
                return skipString(&scanner)
            case "address" where address == nil:
                address = scanner.index
                return skipString(&scanner)
            case "coordinate" where !hasCoordinate:
                hasCoordinate = true
                return members(&scanner) { key, scanner in
                    switch JSONStringToken.raw(key) {
                    case "latitude" where latitude == nil:
                        latitude = number(&scanner, in: Coordinate.latitudeRange)
                        return latitude != nil
                    case "longitude" where longitude == nil:
                        longitude = number(&scanner, in: Coordinate.longitudeRange)
                        return longitude != nil
                    default:
                        return false
                    }
                }
            default:
                // Another member, or one met twice: the general reader keeps it, or reports it.
                return false
            }
        }
        guard isObject, let name else { return nil }
        guard hasCoordinate else { return (name, address, nil) }
        guard let latitude, let longitude else { return nil }
        return (name, address, Coordinate(latitude: latitude, longitude: longitude))
    }

    /// Where the name of the location that comes next starts (its opening quote), for a location
    /// that `locationPartsInOtherLayout` read when its item was read: the members before the name
    /// are passed over, not read again (an address's text, the coordinate's numbers: an object
    /// of numbers alone, which ends at its first `}`), and none after it is looked at.
    package static func locationNameInOtherLayout(_ scanner: inout JSONScanner) -> Int? {
        var name: Int?
        _ = members(&scanner) { key, scanner in
            switch JSONStringToken.raw(key) {
            case "name":
                name = scanner.index
                return false
            case "coordinate":
                guard let end = scanner.bytes[scanner.index...].firstIndex(of: UInt8(ascii: "}")) else { return false }
                scanner.index = end + 1
                return true
            default:
                return skipString(&scanner)
            }
        }
        return name
    }

    /// The location that comes next, laid out as `locationPartsInOtherLayout` reads it.
    package static func locationInOtherLayout(_ scanner: inout JSONScanner) -> Location? {
        guard let (name, address, coordinate) = locationPartsInOtherLayout(&scanner) else { return nil }
        func string(at index: Int) -> String? {
            var reader = scanner
            reader.index = index
            return Self.string(&reader)
        }
        guard let nameText = string(at: name) else { return nil }
        return Location(name: nameText, address: address.flatMap(string), coordinate: coordinate)
    }

    /// Moves past the object that comes next, calling `member` with each key's bytes as written
    /// and the scanner at its value, which `member` moves past and returns whether it could; false
    /// when anything else comes. A key is taken to the first quote after its opening one: the
    /// members asked for are plain letters, so a key with an escape, a control character or
    /// anything else to check is one `member` does not know, which leaves the item to the general
    /// reader (as it would leave one with a member it does not know). The key is handed on as
    /// its bytes: a `JSONStringToken` (which may hold a `String`) was copied for each member.
    private static func members(
        _ scanner: inout JSONScanner, _ member: (UnsafeBufferPointer<UInt8>, inout JSONScanner) -> Bool
    ) -> Bool {
        guard scanner.consume(UInt8(ascii: "{")) else { return false }
        scanner.skipWhitespace()
        while true {
            guard let key = keyAsWritten(&scanner) else { return false }
            scanner.skipWhitespace()
            guard scanner.consume(UInt8(ascii: ":")) else { return false }
            scanner.skipWhitespace()
            guard member(key, &scanner) else { return false }
            scanner.skipWhitespace()
            if scanner.consume(UInt8(ascii: "}")) { return true }
            guard scanner.consume(UInt8(ascii: ",")) else { return false }
            scanner.skipWhitespace()
        }
    }

    /// The bytes between the quote that comes next and the first quote after it, and moves past
    /// both; `nil` with nothing consumed when no quote comes next or none follows. The closing
    /// quote is looked for eight bytes at a time (the "has a zero byte" test on the word XORed
    /// with quotes, whose lowest hit is the first quote): `plainASCIICount`'s four tests a word
    /// cost more, for keys that no member matches anyway (Benchmarks/README.md, "Why the code is as it is").
    @inline(__always)
    private static func keyAsWritten(_ scanner: inout JSONScanner) -> UnsafeBufferPointer<UInt8>? {
        let bytes = scanner.bytes, count = bytes.count, start = scanner.index + 1
        guard start <= count, bytes[start - 1] == UInt8(ascii: "\"") else { return nil }
        let base = bytes.baseAddress!, ones: UInt64 = 0x0101_0101_0101_0101
        var end = start
        while count - end >= 8 {
            let word =
                UInt64(littleEndian: UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self)) ^ (ones &* 0x22)
            let found = (word &- ones) & ~word & (ones &* 0x80)
            if found != 0 {
                end += found.trailingZeroBitCount / 8
                scanner.index = end + 1
                return UnsafeBufferPointer(start: base + start, count: end - start)
            }
            end += 8
        }
        while end < count, base[end] != UInt8(ascii: "\"") { end += 1 }
        guard end < count else { return nil }
        scanner.index = end + 1
        return UnsafeBufferPointer(start: base + start, count: end - start)
    }

    /// Moves past the string that comes next, checked as JSON (escapes, UTF-8), if one does.
    private static func skipString(_ scanner: inout JSONScanner) -> Bool {
        guard scanner.index < scanner.bytes.count, scanner.bytes[scanner.index] == UInt8(ascii: "\"") else {
            return false
        }
        return (try? scanner.skipString()) != nil
    }

    /// The location that comes next, written as `Location.write(to:)` writes it.
    package static func location(_ scanner: inout JSONScanner) -> Location? {
        guard let (name, address, coordinate) = readWrittenLocation(&scanner, string: string) else { return nil }
        return Location(name: name, address: address, coordinate: coordinate)
    }

    /// Moves past the location that comes next when it is written as `Location.write(to:)` writes
    /// it; its strings are only checked.
    private static func skipWrittenLocation(_ scanner: inout JSONScanner) -> Bool {
        readWrittenLocation(&scanner) { scanner in skipWrittenString(&scanner) ? () : nil } != nil
    }

    /// The parts of a location in the written form, its strings read by `string`.
    private static func readWrittenLocation<Text>(
        _ scanner: inout JSONScanner, string: (inout JSONScanner) -> Text?
    ) -> (name: Text, address: Text?, coordinate: Coordinate?)? {
        guard scanner.consume("{\"name\":"), let name = string(&scanner) else { return nil }
        var address: Text?
        if scanner.consume(",\"address\":") {
            guard let text = string(&scanner) else { return nil }
            address = text
        }
        var coordinate: Coordinate?
        if scanner.consume(",\"coordinate\":{\"latitude\":") {
            guard let latitude = number(&scanner, in: Coordinate.latitudeRange),
                scanner.consume(",\"longitude\":"),
                let longitude = number(&scanner, in: Coordinate.longitudeRange),
                scanner.consume("}")
            else { return nil }
            coordinate = Coordinate(latitude: latitude, longitude: longitude)
        }
        guard scanner.consume("}") else { return nil }
        return (name, address, coordinate)
    }

    /// The reminders that come next, as the general reader reads them (`Alarm.list(from:)`).
    package static func alarms(_ scanner: inout JSONScanner) -> [Alarm]? {
        guard let value = try? scanner.unknownValue() else { return nil }
        return Alarm.list(from: value)
    }

    /// Moves past the reminders that come next when they are written exactly as `Alarm.json` is
    /// written (not empty): `[{"before":900},{"before":-60,"of":"start"},{"at":1795765610,"icalendar":["REPEAT:2"]}]`,
    /// checked in place, as every other field of every item is on every read.
    private static func skipWrittenAlarms(_ scanner: inout JSONScanner) -> Bool {
        guard scanner.consume(UInt8(ascii: "[")) else { return false }
        let offsets = -Double(Alarm.longestOffset)...Double(Alarm.longestOffset)
        repeat {
            if scanner.consume("{\"before\":") {
                guard let seconds = number(&scanner, in: offsets), seconds == seconds.rounded() else { return false }
                _ = scanner.consume(",\"of\":\"start\"")
            } else if scanner.consume("{\"at\":") {
                guard number(&scanner, in: ToDoItem.timestampRange) != nil else { return false }
            } else {
                return false
            }
            // The writer writes no empty list of lines.
            if scanner.consume(",\"icalendar\":") {
                guard scanner.index + 1 < scanner.bytes.count, scanner.bytes[scanner.index + 1] != UInt8(ascii: "]"),
                    skipTags(&scanner, string: skipWrittenString, allowsWhitespace: false)
                else { return false }
            }
            guard scanner.consume(UInt8(ascii: "}")) else { return false }
        } while scanner.consume(UInt8(ascii: ","))
        return scanner.consume(UInt8(ascii: "]"))
    }

    /// The id that comes next, as a string of its 36 characters (in upper case only, as the writer
    /// writes ids, when `upperCaseOnly`).
    package static func uuid(_ scanner: inout JSONScanner, upperCaseOnly: Bool = false) -> UUID? {
        let start = scanner.index + 1
        guard scanner.bytes.count - start > 36, scanner.bytes[start - 1] == UInt8(ascii: "\""),
            scanner.bytes[start + 36] == UInt8(ascii: "\""),
            let id = UUID(
                canonical: UnsafeBufferPointer(rebasing: scanner.bytes[start..<start + 36]),
                upperCaseOnly: upperCaseOnly)
        else { return nil }
        scanner.index = start + 37
        return id
    }

    /// The whole number within `range` that comes next, spelled as the writer spells it.
    package static func whole(_ scanner: inout JSONScanner, in range: ClosedRange<Int>) -> Int? {
        guard let value = number(&scanner, in: Double(range.lowerBound)...Double(range.upperBound)),
            value == value.rounded()
        else { return nil }
        return Int(value)
    }

    /// Moves past the list of tags that comes next, an array of strings each checked by `string`.
    private static func skipTags(
        _ scanner: inout JSONScanner, string: (inout JSONScanner) -> Bool, allowsWhitespace: Bool = true
    ) -> Bool {
        elements(&scanner, allowsWhitespace: allowsWhitespace) { string(&$0) }
    }

    /// The tags that come next, already checked (`skipTags`).
    package static func tags(_ scanner: inout JSONScanner) -> [String]? {
        strings(&scanner, string)
    }

    /// The array of strings that comes next, each checked as JSON (escapes, UTF-8); else `nil`,
    /// with the scanner anywhere within it.
    package static func checkedStrings(_ scanner: inout JSONScanner) -> [String]? {
        strings(&scanner) { scanner in
            guard let token = try? scanner.scanString() else { return nil }
            return token.string
        }
    }

    /// The array of strings that comes next, each read by `string`.
    private static func strings(
        _ scanner: inout JSONScanner, _ string: (inout JSONScanner) -> String?
    ) -> [String]? {
        var strings: [String] = []
        let isArray = elements(&scanner, allowsWhitespace: true) { scanner in
            guard let text = string(&scanner) else { return false }
            strings.append(text)
            return true
        }
        return isArray ? strings : nil
    }

    /// The location that comes next when it is written as `Location.write(to:)` writes it, checked;
    /// else `nil`, with the scanner anywhere within it.
    package static func checkedLocation(_ scanner: inout JSONScanner) -> Location? {
        var checked = scanner
        guard skipWrittenLocation(&checked) else { return nil }
        return location(&scanner)
    }

    /// Moves past the array that comes next, calling `element` with the scanner at each element,
    /// which it moves past and returns whether it could.
    private static func elements(
        _ scanner: inout JSONScanner, allowsWhitespace: Bool, _ element: (inout JSONScanner) -> Bool
    ) -> Bool {
        guard scanner.consume(UInt8(ascii: "[")) else { return false }
        if allowsWhitespace { scanner.skipWhitespace() }
        if scanner.consume(UInt8(ascii: "]")) { return true }
        while true {
            guard element(&scanner) else { return false }
            if allowsWhitespace { scanner.skipWhitespace() }
            if scanner.consume(UInt8(ascii: "]")) { return true }
            guard scanner.consume(UInt8(ascii: ",")) else { return false }
            if allowsWhitespace { scanner.skipWhitespace() }
        }
    }

    /// The string that comes next in an item already checked to be in the written form
    /// (`skipWrittenString`), decoded.
    package static func string(_ scanner: inout JSONScanner) -> String? {
        try? scanner.scanStringToken().string
    }

    /// The day that comes next, written `"2026-12-03"` as the writer writes it (no escapes), and
    /// moves past it; else `nil`.
    package static func day(_ scanner: inout JSONScanner) -> Day? {
        let start = scanner.index
        guard scanner.bytes.count - start >= 12, scanner.bytes[start] == UInt8(ascii: "\""),
            scanner.bytes[start + 11] == UInt8(ascii: "\""),
            let day = Day(iso: UnsafeBufferPointer(rebasing: scanner.bytes[start + 1..<start + 11]))
        else { return nil }
        scanner.index = start + 12
        return day
    }

    /// Moves past the day that comes next, as `day` reads one, without working out which it is.
    package static func skipDay(_ scanner: inout JSONScanner) -> Bool {
        let start = scanner.index
        guard scanner.bytes.count - start >= 12, scanner.bytes[start] == UInt8(ascii: "\""),
            scanner.bytes[start + 11] == UInt8(ascii: "\""),
            Day.isISO(UnsafeBufferPointer(rebasing: scanner.bytes[start + 1..<start + 11]))
        else { return false }
        scanner.index = start + 12
        return true
    }

    /// Moves past the string that comes next when it is valid JSON (UTF-8, escapes) written
    /// exactly as `JSONValue.writeString` writes it: no byte it escapes stands bare, and every
    /// escape is its own (`JSONValue.appendEscape`): `\"`, `\\`, `\n`, `\r`, `\t`, and `\u00` with
    /// two lower-case hex digits for the other bytes it escapes. Checked in place, without making a
    /// `String`: this runs for every string of every item on every read.
    private static func skipWrittenString(_ scanner: inout JSONScanner) -> Bool {
        guard scanner.consume(UInt8(ascii: "\"")) else { return false }
        while true {
            scanner.skipPlainASCII()
            guard scanner.index < scanner.bytes.count else { return false }
            let byte = scanner.bytes[scanner.index]
            switch byte {
            case UInt8(ascii: "\""):
                scanner.index += 1
                return true
            case UInt8(ascii: "\\"):
                guard let length = writersEscapeLength(scanner.bytes, at: scanner.index) else { return false }
                scanner.index += length
            case 0x80...:
                guard let length = JSONScanner.utf8SequenceLength(scanner.bytes, at: scanner.index) else {
                    return false
                }
                scanner.index += length
            default:
                // Control characters are not valid JSON, and DEL is escaped by the writer.
                guard !JSONValue.needsEscape(byte) else { return false }
                scanner.index += 1
            }
        }
    }

    /// The length of the escape at `index` when it is one the writer writes, else `nil`.
    private static func writersEscapeLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        guard index + 1 < bytes.count else { return nil }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return 2
        case UInt8(ascii: "u"):
            func lowerHexValue(_ byte: UInt8) -> UInt8? {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
                default: return nil
                }
            }
            guard index + 5 < bytes.count, bytes[index + 2] == UInt8(ascii: "0"), bytes[index + 3] == UInt8(ascii: "0"),
                let high = lowerHexValue(bytes[index + 4]), let low = lowerHexValue(bytes[index + 5])
            else { return nil }
            let byte = high << 4 | low
            // The bytes with a two-character escape never take this form.
            guard JSONValue.needsEscape(byte), ![0x0A, 0x0D, 0x09, 0x22, 0x5C].contains(byte) else { return nil }
            return 6
        default:
            return nil
        }
    }

    /// The number that comes next when it lies within `range` and is spelled as the writer spells
    /// it (`JSONValue.literal(for:)`), else `nil`.
    ///
    /// Most numbers need no formatting to tell. An integer of up to 15 digits is spelled so unless
    /// it is `-0`. A decimal of up to 15 significant digits, with no exponent, no trailing zero and
    /// at least 0.0001 in size, is too: no other decimal of 15 digits or fewer stands for the same
    /// `Double` (DBL_DIG), so the shortest spelling Swift prints is its own, and Swift prints values
    /// from 0.0001 on without an exponent. Its value is exact as an integer divided by a power of
    /// ten, both exact in a `Double` (Clinger's fast path). Any other number is parsed and spelled
    /// anew to compare.
    package static func number(_ scanner: inout JSONScanner, in range: ClosedRange<Double>) -> Double? {
        guard let value = plainNumber(&scanner) ?? spelledAsWritten(&scanner), range.contains(value) else { return nil }
        return value
    }

    /// The number that comes next when it is one of those `number(_:in:)` tells without
    /// formatting, read in one pass over its digits; else `nil` with nothing consumed.
    private static func plainNumber(_ scanner: inout JSONScanner) -> Double? {
        let base = scanner.bytes.baseAddress!, end = scanner.bytes.count, start = scanner.index
        var index = start
        let isNegative = index < end && base[index] == UInt8(ascii: "-")
        if isNegative { index += 1 }
        // All digits are gathered in `mantissa`, which is only used when at most 15 are
        // significant (zeros before the first other digit are not).
        var mantissa: UInt64 = 0, digits = 0, leadingZeros = 0
        var isFraction = false, fractionDigits = 0
        // Eight digits at once when there are (times in seconds have ten).
        if end - index >= 8, base[index] != UInt8(ascii: "0") {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            if let value = eightDigitsValue(word) {
                // A time in seconds (ten digits, nothing after them that a number goes on with),
                // most numbers of a list, told without the loop below.
                if end - index >= 11 {
                    let ninth = base[index + 8] &- UInt8(ascii: "0"), tenth = base[index + 9] &- UInt8(ascii: "0")
                    let next = base[index + 10]
                    if ninth < 10, tenth < 10, next &- UInt8(ascii: "0") >= 10, next != UInt8(ascii: "."),
                        next | 0x20 != UInt8(ascii: "e")
                    {
                        scanner.index = index + 10
                        let seconds = Double(value &* 100 &+ UInt64(ninth &* 10 &+ tenth))
                        return isNegative ? -seconds : seconds
                    }
                }
                mantissa = value
                digits = 8
                index += 8
            }
        }
        while index < end {
            let digit = base[index] &- UInt8(ascii: "0")
            if digit < 10 {
                if mantissa == 0, digit == 0 { leadingZeros += 1 }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                digits += 1
                if isFraction { fractionDigits += 1 }
            } else if base[index] == UInt8(ascii: "."), !isFraction {
                // JSON has digits before the point, and no leading zeros.
                guard digits > 0, digits == 1 || leadingZeros == 0 else { return nil }
                isFraction = true
            } else {
                break
            }
            index += 1
        }
        // A number has digits; an integer part has no leading zero; a fraction has digits, the
        // last not a zero (the writer writes none); the writer writes no exponent.
        guard digits > fractionDigits, isFraction || digits == 1 || leadingZeros == 0,
            !isFraction || (fractionDigits > 0 && base[index - 1] != UInt8(ascii: "0")),
            index == end || base[index] | 0x20 != UInt8(ascii: "e")
        else { return nil }
        let significantDigits = digits - leadingZeros
        guard significantDigits <= 15 else { return nil }
        let value: Double
        if fractionDigits == 0 {
            if isNegative, mantissa == 0 { return nil } // -0, which the writer writes as 0
            value = Double(mantissa)
        } else {
            // At most 3 zeros after the point before the first significant digit: at least 0.0001.
            guard fractionDigits - significantDigits < 4 else { return nil }
            value = Double(mantissa) / powersOfTen[fractionDigits]
        }
        scanner.index = index
        return isNegative ? -value : value
    }

    /// The value of the eight decimal digits in `word` (the first in its lowest byte), or `nil`
    /// when they are not all digits; the bit tricks of fast_float (Lemire).
    @inline(__always)
    private static func eightDigitsValue(_ word: UInt64) -> UInt64? {
        let high: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        guard (word & high) | (((word &+ 0x0606_0606_0606_0606) & high) >> 4) == 0x3333_3333_3333_3333 else {
            return nil
        }
        var value = ((word & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
        value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        return ((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
    }

    /// 10^0 through 10^18, each exact in a `Double`.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18
    ]

    /// The number that comes next when `JSONValue.literal(for:)` spells its value the same way:
    /// parsed, spelled anew and compared. Else `nil`.
    private static func spelledAsWritten(_ scanner: inout JSONScanner) -> Double? {
        let start = scanner.index
        guard start < scanner.bytes.count,
            scanner.bytes[start] == UInt8(ascii: "-") || scanner.isDigit(scanner.bytes[start]),
            (try? scanner.skipNumber()) != nil
        else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[start..<scanner.index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite, JSONValue.literal(for: value) == text else { return nil }
        return value
    }
}
