import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoCore

/// The writer never writes what the reader refuses, whatever another program's members are
/// called: Taskwarrior tasks carrying members named as every one of todo's own keys, and others,
/// with values of every JSON type, are imported, written, read back whole, and go back to
/// Taskwarrior under their own names and values.
final class ForeignMembersPropertyTests: XCTestCase {
    /// Names a task may carry: every key todo reads in its file (but those Taskwarrior itself
    /// has a meaning for, which its import reads), and a few a user-defined attribute may take.
    private static let names =
        ToDoItem.ownKeys.subtracting(["priority", "tags", "id", "annotations"]).sorted() + [
            "estimate", "x", "location2"
        ]

    private static func value(_ random: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth < 2 ? 7 : 5), using: &random) {
        case 0:
            return .string(
                ["", "20200102T120000Z", "Office", "11111111-2222-3333-4444-555555555558", "ünïcödé 😂"].randomElement(
                    using: &random)!)
        case 1: return .number(Int.random(in: -5...1_000_000, using: &random))
        case 2: return .number(Double.random(in: -1e6...1e6, using: &random))
        case 3: return .bool(Bool.random(using: &random))
        case 4: return .null
        case 5: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random, depth: depth + 1) })
        default:
            var object = JSONObject()
            for index in 0..<Int.random(in: 0...3, using: &random) {
                object["k\(index)"] = value(&random, depth: depth + 1)
            }
            return .object(object)
        }
    }

    func test_tasksWithMembersNamedAsTodosOwnKeys_importWriteAndReadBack_andGoBackUnchanged() throws {
        var random = SeededGenerator(seed: 31)
        let directory = try TemporaryDirectory()
        var tasks: [JSONValue] = [], expected: [String: JSONObject] = [:]
        for index in 0..<500 {
            var task = JSONObject()
            let uuid = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index + 1))!.uuidString
                .lowercased()
            task["uuid"] = .string(uuid)
            task["description"] = .string("Task \(index)")
            task["status"] = .string("pending")
            var foreign = JSONObject()
            for name in Self.names.shuffled(using: &random).prefix(Int.random(in: 0...6, using: &random)) {
                let value = Self.value(&random)
                // A null member is no member, to Taskwarrior as to todo.
                if value != .null { foreign[name] = value }
                task[name] = value
            }
            tasks.append(.object(task))
            expected[uuid] = foreign
        }
        let store = JSONFileStore(fileURL: directory.file("items.json"))
        let read = try ItemInterchange.read(
            JSONValue.array(tasks).serializedCompactly(), format: .taskwarrior, timeZone: .utc)
        try store.update { manager in _ = try manager.importItems(read.items) }

        // Read back whole by a new store, every item there.
        let back = try JSONFileStore(fileURL: directory.file("items.json")).load()
        XCTAssertEqual(back.toDoCount, 500)
        try store.update { manager in _ = try manager.add(ToDoItem(title: "One more")) }

        guard
            case .array(let exported) = try JSONValue(
                parsing: TaskwarriorFormat.write(back.toDoItems, now: Date(timeIntervalSince1970: 0), timeZone: .utc))
        else {
            return XCTFail("not an array")
        }
        var checked = 0
        for case .object(let task) in exported {
            guard case .string(let uuid)? = task["uuid"], let foreign = expected[uuid] else { continue }
            for (name, value) in foreign.members {
                XCTAssertEqual(task[name], value, "\(uuid) \(name)")
            }
            XCTAssertNil(task.keys.first { $0.hasPrefix("taskwarrior:") }, uuid)
            checked += 1
        }
        XCTAssertEqual(checked, 500)
    }
}

/// The same through every import that keeps what todo has no field for: Reminders' objects and
/// todo's own JSON with members of every name, iCalendar with properties of every name. Each list
/// is written, read back by a new store equal to what was imported, and written again byte for
/// byte the same.
final class EveryImportPropertyTests: XCTestCase {
    /// A name a member may have: each of todo's keys, and others.
    private static func name(_ random: inout SeededGenerator) -> String {
        (ToDoItem.ownKeys.sorted() + [
            "list", "listId", "project", "url", "x", "from", "taskwarrior:start", "reminders:x", "é"
        ])
        .randomElement(using: &random)!
    }

    private static func value(_ random: inout SeededGenerator) -> JSONValue {
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            return .string(["", "2026-12-03", "20200102T120000Z", "Home", "ünïcödé 😂"].randomElement(using: &random)!)
        case 1: return .number(Int.random(in: -5...1_000_000, using: &random))
        case 2: return .bool(Bool.random(using: &random))
        case 3: return .null
        case 4: return .array([.number(Int.random(in: 0...9, using: &random)), .string("a")])
        default:
            var object = JSONObject()
            object[name(&random)] = .string("nested")
            return .object(object)
        }
    }

    /// Imports `source` as `format` into a new list, and checks the list reads back as imported
    /// and writes again as it was.
    private func checkRoundTrip(
        _ source: [UInt8], format: ImportFormat, count: Int, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let directory = try TemporaryDirectory()
        let store = JSONFileStore(fileURL: directory.file("items.json"))
        let read = try ItemInterchange.read(source, format: format, timeZone: .utc)
        XCTAssertEqual(read.items.count, count, file: file, line: line)
        let imported = try store.update { manager in
            _ = try manager.importItems(read.items)
            return manager.toDoItems + manager.doneItems
        }
        let bytes = try Data(contentsOf: directory.file("items.json"))
        let back = try JSONFileStore(fileURL: directory.file("items.json")).load()
        XCTAssertEqual(back.toDoItems + back.doneItems, imported, file: file, line: line)
        try store.update { manager in
            _ = try manager.add(ToDoItem(title: "Written again"))
            _ = try manager.removeItem(withID: manager.toDoItems.last!.id)
        }
        var rewritten = String(decoding: try Data(contentsOf: directory.file("items.json")), as: UTF8.self)
        rewritten = rewritten.replacingOccurrences(of: "\"revision\": 2,", with: "\"revision\": 1,")
            .replacingOccurrences(
                of: "\"nextNumber\": \(imported.count + 2),", with: "\"nextNumber\": \(imported.count + 1),")
        XCTAssertEqual(
            rewritten, String(decoding: bytes, as: UTF8.self), "written again the same", file: file, line: line)
    }

    func test_reminders_withMembersOfEveryName() throws {
        var random = SeededGenerator(seed: 3101)
        var reminders: [JSONValue] = []
        for index in 0..<1000 {
            var reminder = JSONObject()
            reminder["externalId"] = .string("x-apple-reminderkit://REMCDReminder/\(index)")
            reminder["title"] = .string("Reminder \(index)")
            reminder["isCompleted"] = .bool(Bool.random(using: &random))
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let key = Self.name(&random)
                if reminder[key] == nil, !["externalId", "title", "isCompleted"].contains(key) {
                    reminder[key] = Self.value(&random)
                }
            }
            reminders.append(.object(reminder))
        }
        try checkRoundTrip(JSONValue.array(reminders).serializedCompactly(), format: .reminders, count: 1000)
    }

    func test_todosJSON_withMembersItDoesNotKnow() throws {
        var random = SeededGenerator(seed: 3102)
        var items: [JSONValue] = []
        for index in 0..<1000 {
            var item = JSONObject()
            item["title"] = .string("Item \(index)")
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                // todo's own keys are todo's in its own format: the others are what it does not know.
                let key = Self.name(&random)
                if !ToDoItem.ownKeys.contains(key), item[key] == nil { item[key] = Self.value(&random) }
            }
            items.append(.object(item))
        }
        var document = JSONObject()
        document["version"] = .number(2)
        document["items"] = .array(items)
        try checkRoundTrip(JSONValue.object(document).serializedCompactly(), format: .json, count: 1000)
    }

    func test_iCalendar_withPropertiesOfEveryName() throws {
        var random = SeededGenerator(seed: 3103)
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0"]
        for index in 0..<1000 {
            lines += ["BEGIN:VTODO", "UID:task-\(index)@example.com", "SUMMARY:Task \(index)"]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let name = Self.name(&random).uppercased().filter { $0.isLetter || $0 == "-" }
                guard !name.isEmpty else { continue }
                lines.append("X-\(name);X-P=\"a:b\":value \(Int.random(in: 0...99, using: &random))")
                if Bool.random(using: &random) {
                    lines.append("\(name):\(["plain", "a\\,b", "ünï"].randomElement(using: &random)!)")
                }
            }
            lines.append("END:VTODO")
        }
        lines.append("END:VCALENDAR")
        try checkRoundTrip(Array((lines.joined(separator: "\r\n") + "\r\n").utf8), format: .ical, count: 1000)
    }
}

extension EveryImportPropertyTests {
    /// todo.txt lines with `key:value` words of every name (todo's own keys among them, and values
    /// todo cannot read): what todo does not read stays in the title, as todo.sh reads it, and the
    /// list reads back as imported.
    func test_todoTxt_withKeyValueWordsOfEveryName() throws {
        var random = SeededGenerator(seed: 3104)
        let keys = [
            "due", "t", "rec", "pri", "tag", "parent", "loc", "addr", "geo", "desc", "id", "url", "start", "x", "h",
            "+p", "@c"
        ]
        let values = [
            "2026-12-03", "2026-12-03T17:00", "banana", "1w", "%zz", "52.5,13.4", "", "A",
            "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F"
        ]
        var lines: [String] = []
        for index in 0..<1000 {
            var words = ["Line", "\(index)"]
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                words.append(keys.randomElement(using: &random)! + ":" + values.randomElement(using: &random)!)
            }
            // Each line its own id, so that none is a twin of another.
            lines.append(
                words.shuffled(using: &random).joined(separator: " ")
                    + " id:\(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index + 1))!.uuidString)")
        }
        try checkRoundTrip(Array(lines.joined(separator: "\n").utf8), format: .todotxt, count: 1000)
    }
}
