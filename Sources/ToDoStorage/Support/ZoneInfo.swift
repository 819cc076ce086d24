import ToDoModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Zones by name, from the system's compiled zoneinfo files (TZif), as the C library finds them:
/// what Foundation's `TimeZone(identifier:)` read on Linux, which FoundationEssentials does not do.
package enum ZoneInfo {
    /// Where the C library finds zones by name.
    package static let directory = "/usr/share/zoneinfo"
    /// A zoneinfo file is a few kilobytes; a larger one is not one.
    private static let sizeLimit = 1 << 20

    /// The zone an IANA name (`Europe/Berlin`, `UTC`) names; `nil` when no file of the folder has it.
    package static func zone(named name: some StringProtocol) -> TimeZoneRules? {
        guard !name.isEmpty, !name.hasPrefix("/"),
            !name.split(separator: "/").contains(where: { $0 == ".." || $0 == "." })
        else { return nil }
        if let zone = zone(atPath: "\(directory)/\(name)", name: String(name), namedByItsFile: false) { return zone }
        // UTC's names, known without the files (a container without tzdata).
        return namesOfUTC.contains(String(name)) ? TimeZoneRules(POSIXTimeZone("UTC0")!, name: String(name)) : nil
    }

    /// The zone an abbreviation (`PST`) stands for, as Foundation's `TimeZone(abbreviation:)` took it.
    package static func zone(abbreviation: String) -> TimeZoneRules? {
        abbreviations[abbreviation].flatMap { zone(named: $0) }
    }

    /// The fixed offset `GMT+0100` names, *east* of UTC, as Foundation's `TimeZone(identifier:)`
    /// read `GMT` with four digits (POSIX rules take at most 24 hours, so the C library refuses it).
    package static func zone(gmtOffset name: String) -> TimeZoneRules? {
        let bytes = Array(name.utf8)
        guard bytes.count == 8, name.hasPrefix("GMT"), bytes[3] == UInt8(ascii: "+") || bytes[3] == UInt8(ascii: "-"),
            bytes[4...].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let hours = Int(name.dropFirst(4).prefix(2)), let minutes = Int(name.suffix(2)), hours <= 18, minutes < 60
        else { return nil }
        let offset = (hours * 3600 + minutes * 60) * (bytes[3] == UInt8(ascii: "-") ? -1 : 1)
        return TimeZoneRules(transitions: [], offsets: [], initialOffset: offset, name: name)
    }

    /// Foundation's `TimeZone.abbreviationDictionary`.
    private static let abbreviations: [String: String] = [
        "ADT": "America/Halifax", "AKDT": "America/Juneau", "AKST": "America/Juneau",
        "ART": "America/Argentina/Buenos_Aires", "AST": "America/Halifax", "BDT": "Asia/Dhaka",
        "BRST": "America/Sao_Paulo", "BRT": "America/Sao_Paulo", "BST": "Europe/London", "CAT": "Africa/Harare",
        "CDT": "America/Chicago", "CEST": "Europe/Paris", "CET": "Europe/Paris", "CLST": "America/Santiago",
        "CLT": "America/Santiago", "COT": "America/Bogota", "CST": "America/Chicago", "EAT": "Africa/Addis_Ababa",
        "EDT": "America/New_York", "EEST": "Europe/Athens", "EET": "Europe/Athens", "EST": "America/New_York",
        "GMT": "GMT", "GST": "Asia/Dubai", "HKT": "Asia/Hong_Kong", "HST": "Pacific/Honolulu", "ICT": "Asia/Bangkok",
        "IRST": "Asia/Tehran", "IST": "Asia/Kolkata", "JST": "Asia/Tokyo", "KST": "Asia/Seoul",
        "MDT": "America/Denver", "MSD": "Europe/Moscow", "MSK": "Europe/Moscow", "MST": "America/Phoenix",
        "NDT": "America/St_Johns", "NST": "America/St_Johns", "NZDT": "Pacific/Auckland", "NZST": "Pacific/Auckland",
        "PDT": "America/Los_Angeles", "PET": "America/Lima", "PHT": "Asia/Manila", "PKT": "Asia/Karachi",
        "PST": "America/Los_Angeles", "SGT": "Asia/Singapore", "TRT": "Europe/Istanbul", "UTC": "UTC",
        "WAT": "Africa/Lagos", "WEST": "Europe/Lisbon", "WET": "Europe/Lisbon", "WIT": "Asia/Jakarta"
    ]

    private static let namesOfUTC: Set<String> = [
        "UTC", "GMT", "UCT", "Etc/UTC", "Etc/GMT", "Etc/UCT", "Universal", "Zulu", "Etc/Universal", "Etc/Zulu"
    ]

    /// The zone of the zoneinfo file at `path` (`/etc/localtime`, a copy of one), named by the name
    /// the file has in the zoneinfo folder when it is one of the folder's (through links), else `name`.
    package static func zone(atPath path: String, name: String, namedByItsFile: Bool = true) -> TimeZoneRules? {
        guard let resolved = FileSystem.resolvedPath(path) else { return nil }
        var status = stat()
        guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size < sizeLimit,
            let bytes = try? FileSystem.readFile(at: resolved), bytes.count < sizeLimit
        else { return nil }
        let folderName =
            namedByItsFile ? resolved.occurrence(of: "/zoneinfo/").map { String(resolved[$0.upperBound...]) } : nil
        return TimeZoneRules(zoneinfo: bytes, name: folderName ?? name)
    }
}
