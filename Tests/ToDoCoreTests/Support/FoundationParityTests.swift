import Foundation
import TestSupport
import ToDoModel
import ToDoStorage
import XCTest

@testable import ToDoCore

/// todo links FoundationEssentials alone on Linux; what it took from the whole Foundation before
/// (and ICU under it) it now does itself. Each piece does what Foundation did, compared here with
/// Foundation itself, which the tests still link.
final class FoundationParityTests: XCTestCase {
    func test_searchIgnoringCase_findsWhatFoundationFinds() {
        let texts = [
            "Call Mom", "call mom", "CALL MOM tomorrow", "Buy milk", "Ärger mit Öl", "Café crème", "ÇA VA", "x", "",
            "Mom's car",
            "İstanbul trip", "résumé", "Σίσυφος", "naïve"
        ]
        let parts = [
            "mom", "MOM", "all m", "milk", "ärger", "ÖL", "CAFÉ", "crème", "ça", "x", "s c", "RÉSUMÉ", "σίσυφος",
            "NAÏVE", "zzz", "Mom's", "mo m"
        ]
        for text in texts {
            for part in parts {
                XCTAssertEqual(
                    TextComparison.contains(text, ignoringCase: part),
                    text.range(of: part, options: .caseInsensitive) != nil,
                    "\(text.debugDescription) ∋ \(part.debugDescription)")
            }
        }
    }

    func test_searchIgnoringCase_foldsAsUnicodeDoes() {
        XCTAssertTrue(TextComparison.contains("Straße fegen", ignoringCase: "STRASSE"))
        XCTAssertTrue(TextComparison.contains("ΟΔΥΣΣΕΥΣ", ignoringCase: "οδυσσευς"))
        XCTAssertTrue(TextComparison.contains("anything", ignoringCase: ""))
        XCTAssertFalse(TextComparison.contains("", ignoringCase: "a"))
    }

    func test_titleOrder_isFoundationsCaseInsensitiveNumericOrder() {
        let titles = [
            "Item 10", "item 9", "Item 9b", "item 09", "Apples", "apples", "Bananas", "banana", "2 eggs", "10 eggs",
            "Call Mom",
            "call mom 2", "Call Mom 10", "x1y2", "x1y10", "x01y3", "", "Zebra", "éclair", "Éclair", "a", "A1", "a01",
            "a001b"
        ]
        for left in titles {
            for right in titles {
                XCTAssertEqual(
                    TextComparison.compare(left, right), left.compare(right, options: [.caseInsensitive, .numeric]),
                    "\(left.debugDescription) against \(right.debugDescription)")
            }
        }
    }

    func test_pathParts_areNSStrings() {
        let paths = [
            "/tmp/scratch.tiff", "/tmp/lock/", "/tmp/", "/tmp", "/", "scratch.tiff", "a/b", "a/b/", "a//b", "/a/b//",
            "", "items.json",
            "/home/me/.local/share/todo/items.json"
        ]
        for path in paths {
            XCTAssertEqual(
                PathText.folder(of: path), (path as NSString).deletingLastPathComponent, path.debugDescription)
            XCTAssertEqual(PathText.lastName(of: path), (path as NSString).lastPathComponent, path.debugDescription)
        }
        for (folder, name) in [("/tmp", "a"), ("/tmp/", "a"), ("/", "a"), ("", "a"), ("x", "displayname")] {
            XCTAssertEqual(
                PathText.appending(name, to: folder), (folder as NSString).appendingPathComponent(name),
                "\(folder) + \(name)")
        }
    }

    func test_percentDecoding_isFoundations() {
        for text in ["a%20b", "%E2%9C%93 done", "100%", "%zz", "%2", "plain", "", "%C3%28", "a%2Bb%2520", "%%41"] {
            XCTAssertEqual(PercentEncoding.decoded(text), text.removingPercentEncoding, text.debugDescription)
        }
    }

    func test_base64_isFoundations() {
        var random = SystemRandomNumberGenerator()
        for count in 0...40 {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            XCTAssertEqual(Base64.encoded(bytes), Data(bytes).base64EncodedString(), "\(bytes)")
        }
        XCTAssertEqual(Base64.encoded(Array("alice:pass word ✓".utf8)), "YWxpY2U6cGFzcyB3b3JkIOKckw==")
    }

    func test_aFoldersNames_andTheEnvironment_areFoundations() throws {
        let folder = try TemporaryDirectory()
        for name in ["a.ics", ".hidden", "Ünïcode name", "b"] {
            XCTAssertTrue(
                FileManager.default.createFile(atPath: folder.url.appendingPathComponent(name).path, contents: Data()))
        }
        XCTAssertEqual(
            try FileSystem.names(inFolder: folder.url.path).sorted(),
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted())
        XCTAssertThrowsError(try FileSystem.names(inFolder: folder.url.appendingPathComponent("missing").path))
        XCTAssertEqual(ProcessEnvironment.all(), ProcessInfo.processInfo.environment)
        XCTAssertEqual(FileSystem.currentDirectory(), FileManager.default.currentDirectoryPath)
    }

    /// An address is spelled, taken apart and resolved as Foundation's `URL` did.
    func test_webAddresses_areFoundationsURLs() throws {
        let texts = [
            "http://a/b c", "http://a/b%20c", "https://Host.COM:8443/dav/", "http://[::1]:8080/x",
            "http://u:p@h/x?q=1#f", "http://h",
            "HTTP://h/a/./b/../c", "http://h/ä", "http://h:99999/", "http://h/a?b c", "mailto:x@y", "http:/h/x",
            "http://h/%zz",
            "https://nominatim.openstreetmap.org/search?key=abc", "http://127.0.0.1:5232/alice/tasks/", "http://h/x "
        ]
        for text in texts {
            let url = try XCTUnwrap(URL(string: text), text)
            let address = try XCTUnwrap(WebAddress(string: text), text)
            XCTAssertEqual(address.absoluteString, url.absoluteString, text)
            XCTAssertEqual(address.host, url.host, text)
            XCTAssertEqual(address.port, url.port, text)
            XCTAssertEqual(address.lastPathComponent, url.lastPathComponent, text)
            XCTAssertEqual(address.hasUserInformation, url.user != nil, text)
        }
        for text in ["relative/x", "/path", "//host/x", "", "http://h:port/", "1http://h/", "  http://h/x"] {
            XCTAssertNil(WebAddress(string: text), text)
        }
        let bases = ["http://h/dav/cal/", "http://h/dav/cal", "http://h", "https://h:8443/a/b/c"]
        let references = [
            "x.ics", "/abs/y.ics", "../z", "../../../../z", "//other/p", "https://o/q", "?q", "#f", "a b.ics",
            "%7Euser/", ".", "..",
            "./x/./y/../z", "g;x=1/../y", "HTTP://O/P/../Q"
        ]
        for base in bases {
            let url = try XCTUnwrap(URL(string: base)), address = try XCTUnwrap(WebAddress(string: base))
            for reference in references {
                XCTAssertEqual(
                    WebAddress(string: reference, relativeTo: address)?.absoluteString,
                    URL(string: reference, relativeTo: url)?.absoluteURL.absoluteString, "\(reference) against \(base)")
            }
            XCTAssertNil(WebAddress(string: "", relativeTo: address))
            for (component, isDirectory) in [
                ("a b/c", true), ("", false), (".well-known/caldav", false), ("chores", true), ("Ä & ß", true)
            ] {
                XCTAssertEqual(
                    address.appendingPathComponent(component, isDirectory: isDirectory).absoluteString,
                    url.appendingPathComponent(component, isDirectory: isDirectory).absoluteString,
                    "\(base) + \(component)")
            }
            XCTAssertEqual(
                address.deletingLastPathComponent().absoluteString, url.deletingLastPathComponent().absoluteString, base
            )
        }
        XCTAssertEqual(
            WebAddress(string: "https://geo.example/search?key=abc")!.appendingQuery([("q", "a b&c+d#e ä")])
                .absoluteString,
            "https://geo.example/search?key=abc&q=a%20b%26c%2Bd%23e%20%C3%A4")
    }

    /// Zones by name come from the zoneinfo files, as Foundation's did on Linux.
    func test_zonesByName_haveFoundationsOffsets() throws {
        let names = [
            "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe", "America/St_Johns",
            "Asia/Kathmandu",
            "Pacific/Chatham", "Africa/Casablanca", "America/Sao_Paulo", "UTC", "Etc/GMT+5", "EST5EDT", "US/Pacific"
        ]
        // From 1970: before it, the zoneinfo files merge zones that agree since (EST5EDT is New York's now).
        let moments = stride(from: 0.0, through: 4_000_000_000, by: 86_400 * 37 + 3_613).map { $0 }
        for name in names {
            guard let foundation = TimeZone(identifier: name) else { continue }
            let rules = try XCTUnwrap(ZoneInfo.zone(named: name), name)
            XCTAssertEqual(rules.name, name)
            for moment in moments {
                XCTAssertEqual(
                    rules.secondsFromGMT(at: moment),
                    foundation.secondsFromGMT(for: Date(timeIntervalSince1970: moment)), "\(name) at \(moment)")
            }
        }
        XCTAssertNil(ZoneInfo.zone(named: "Mars/Olympus_Mons"))
        XCTAssertNil(ZoneInfo.zone(named: "../../etc/passwd"))
        XCTAssertNil(ZoneInfo.zone(named: "/etc/localtime"))
        XCTAssertNil(ZoneInfo.zone(named: ""))
    }

    func test_abbreviations_standForFoundationsZones() throws {
        for (abbreviation, name) in TimeZone.abbreviationDictionary {
            let rules = try XCTUnwrap(ZoneInfo.zone(abbreviation: abbreviation), abbreviation)
            let foundation = try XCTUnwrap(TimeZone(identifier: name))
            for moment in [0.0, 1_700_000_000, 1_720_000_000] {
                XCTAssertEqual(
                    rules.secondsFromGMT(at: moment),
                    foundation.secondsFromGMT(for: Date(timeIntervalSince1970: moment)), abbreviation)
            }
        }
        XCTAssertNil(ZoneInfo.zone(abbreviation: "XYZ"))
    }
}
