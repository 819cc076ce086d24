import Foundation
import ToDoModel
import ToDoStorage
import XCTest

@testable import ToDoCore

/// A record declared as a table of members is written and read from that one table: each member
/// as its kind says, and a file that lacks a required one, or is newer, refused.
final class JSONRecordTests: XCTestCase {
    private struct Inner: JSONRecord, Equatable {
        var name = ""
        var count = 0
        static let unread = Inner()
        static let members: [JSONMember<Inner>] = [
            .required("name", { $1(&$0.name) }, .string(written: { $0 }, read: { $0.isEmpty ? nil : $0 })),
            .always("count", { $1(&$0.count) }, .count)
        ]
        static let missing = "expected a name"
    }

    private struct Outer: JSONRecord, Equatable {
        var version = 3
        var note: String?
        var when: Double?
        var digest: UInt64?
        var isOn = false
        var words: [String] = []
        var inner = Inner(name: "placeholder")
        var spare: Inner?
        var all: [Inner] = []
        var id: UUID?
        var at: Int?
        var lines: [String] = []
        static let unread = Outer()
        static let members: [JSONMember<Outer>] = [
            .version(3, { $1(&$0.version) }), .optional("note", { $1(&$0.note) }, .string),
            .optional("when", { $1(&$0.when) }, .number()),
            .optional(
                "digest", { $1(&$0.digest) },
                .string(written: { String($0, radix: 16) }, read: { UInt64($0, radix: 16) })),
            .flag("on", { $1(&$0.isOn) }),
            .nonEmpty(
                "words", { $1(&$0.words) },
                .array(of: .string(written: { $0 }, read: { $0.lowercased() }), leavingOutNone: true)),
            .required("inner", { $1(&$0.inner) }, .of(Inner.self), missing: "expected the inner record"),
            .optional("spare", { $1(&$0.spare) }, .of(Inner.self).orNone),
            .nonEmpty("all", { $1(&$0.all) }, .array(of: .of(Inner.self))),
            .optional("id", { $1(&$0.id) }, .id), .optional("at", { $1(&$0.at) }, .whole(in: 1...9)),
            .nonEmpty("lines", { $1(&$0.lines) }, .array(of: .string, oneToALine: true))
        ]
        static let missing = "expected the version and the inner record"
    }

    private func written(_ outer: Outer) -> String {
        var writer = JSONWriter()
        outer.write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func read(_ text: String) throws(JSONDecodingError) -> Outer {
        try JSONScanner.scanDocument(in: Array(text.utf8)) { scanner throws(JSONDecodingError) in
            try Outer(scanning: &scanner, path: { "" })
        }
    }

    func test_aRecord_isWrittenInItsTablesOrder_leavingOutWhatItLacks_andReadBackTheSame() throws {
        var outer = Outer(inner: Inner(name: "a", count: 2))
        XCTAssertEqual(written(outer), #"{"version":3,"inner":{"name":"a","count":2}}"#, "flags off and nothing else")
        outer.note = "n\"q"
        outer.when = 1.5
        outer.digest = 0xFF00_FF00_FF00_FF00
        outer.isOn = true
        outer.words = ["x", "y"]
        outer.spare = Inner(name: "s")
        outer.all = [Inner(name: "b"), Inner(name: "c", count: 1)]
        outer.id = UUID(uuidString: "0000000A-0000-0000-0000-0000000000FF")
        outer.at = 9
        outer.lines = ["p", "q"]
        XCTAssertEqual(
            written(outer),
            #"{"version":3,"note":"n\"q","when":1.5,"digest":"ff00ff00ff00ff00","on":true,"words":["x","y"],"#
                + #""inner":{"name":"a","count":2},"spare":{"name":"s","count":0},"#
                + #""all":[{"name":"b","count":0},{"name":"c","count":1}],"#
                + #""id":"0000000A-0000-0000-0000-0000000000FF","at":9,"lines":[\#n"p",\#n"q"\#n]}"#)
        XCTAssertEqual(try read(written(outer)), outer)
    }

    func test_reading_passesOverWhatItDoesNotKnow_takesNullAsNone_andReadsAsTheMemberSays() throws {
        let outer = try read(
            #"{"later":[1,{"x":2}],"version":2,"on":null,"note":null,"words":["A",null,"B"],"inner":{"name":"i","more":true},"spare":null}"#
        )
        XCTAssertEqual(outer, Outer(version: 2, words: ["a", "b"], inner: Inner(name: "i")))
    }

    func test_aRecordWithoutARequiredMember_orOfANewerVersion_orOfAnotherKind_isRefused() {
        func refusal(_ text: String) -> String? {
            do {
                _ = try read(text)
                return nil
            } catch {
                switch error {
                case .shape(let shape): return shape.description
                case .newerVersion(let version): return "newer \(version)"
                case .syntax(let syntax): return "syntax \(syntax)"
                }
            }
        }
        XCTAssertEqual(refusal(#"{"inner":{"name":"a"}}"#), "version: expected a number")
        XCTAssertEqual(refusal(#"{"version":3}"#), "inner: expected the inner record")
        XCTAssertEqual(refusal(#"{"version":3,"inner":{"count":1}}"#), "inner: expected a name")
        XCTAssertEqual(refusal(#"{"version":3,"inner":{"name":""}}"#), "inner: expected a name")
        XCTAssertEqual(refusal(#"{"version":4,"inner":{"name":"a"}}"#), "newer 4")
        XCTAssertEqual(
            refusal(#"{"version":3,"inner":{"name":"a"},"all":[{"name":"b"},{"count":1}]}"#), "all[1]: expected a name")
        XCTAssertEqual(refusal(#"{"version":3,"inner":{"name":"a"},"on":1}"#), "on: expected a boolean, found a number")
        XCTAssertNotNil(refusal(#"{"version":3,"inner":{"name":"a"},"words":"x"}"#))
        XCTAssertEqual(
            refusal(#"{"version":3,"inner":{"name":"a"},"all":[null]}"#), "all[0]: expected an object, found null")
        XCTAssertEqual(refusal(#"{"version":3,"inner":{"name":"a"},"all":null}"#), "all: expected an array, found null")
        XCTAssertEqual(refusal(#"{"version":3,"inner":null}"#), "inner: expected an object, found null")
        XCTAssertEqual(
            refusal(#"{"version":3,"inner":{"name":"a"},"lines":["p",null]}"#), "lines[1]: expected a value, found null"
        )
        XCTAssertEqual(refusal(#"{"version":3,"inner":{"name":"a"},"at":10}"#), "at: 10 is outside 1...9")
        XCTAssertEqual(refusal(#"{"version":3,"inner":{"name":"a"},"id":"x"}"#), #"id: expected an id, found "x""#)
        XCTAssertNotNil(refusal(#"["version"]"#))
    }
}
