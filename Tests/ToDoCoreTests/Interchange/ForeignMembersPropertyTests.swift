import Foundation
import TestSupport
@testable import ToDoCore
import XCTest

/// The writer never writes what the reader refuses, whatever another program's members are
/// called: Taskwarrior tasks carrying members named as every one of todo's own keys, and others,
/// with values of every JSON type, are imported, written, read back whole, and go back to
/// Taskwarrior under their own names and values.
final class ForeignMembersPropertyTests: XCTestCase {
    /// Names a task may carry: every key todo reads in its file (but those Taskwarrior itself
    /// has a meaning for, which its import reads), and a few a user-defined attribute may take.
    private static let names = ToDoItem.ownKeys.subtracting(["priority", "tags", "id"]).sorted() + ["project", "estimate", "x", "location2"]

    private static func value(_ random: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth < 2 ? 7 : 5), using: &random) {
        case 0: return .string(["", "20200102T120000Z", "Office", "11111111-2222-3333-4444-555555555558", "ünïcödé 😂"].randomElement(using: &random)!)
        case 1: return .number(Int.random(in: -5...1_000_000, using: &random))
        case 2: return .number(Double.random(in: -1e6...1e6, using: &random))
        case 3: return .bool(Bool.random(using: &random))
        case 4: return .null
        case 5: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random, depth: depth + 1) })
        default:
            var object = JSONObject()
            for index in 0..<Int.random(in: 0...3, using: &random) { object["k\(index)"] = value(&random, depth: depth + 1) }
            return .object(object)
        }
    }

    func test_tasksWithMembersNamedAsTodosOwnKeys_importWriteAndReadBack_andGoBackUnchanged() throws {
        var random = SeededGenerator(seed: 31)
        let directory = try TemporaryDirectory()
        var tasks: [JSONValue] = [], expected: [String: JSONObject] = [:]
        for index in 0..<500 {
            var task = JSONObject()
            let uuid = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index + 1))!.uuidString.lowercased()
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
        let read = try ItemInterchange.read(JSONValue.array(tasks).serializedCompactly(), format: .taskwarrior, timeZone: .utc)
        try store.update { manager in _ = try manager.importItems(read.items) }

        // Read back whole by a new store, every item there.
        let back = try JSONFileStore(fileURL: directory.file("items.json")).load()
        XCTAssertEqual(back.toDoCount, 500)
        try store.update { manager in _ = try manager.add(ToDoItem(title: "One more")) }

        guard case .array(let exported) = try JSONValue(parsing: TaskwarriorFormat.write(back.toDoItems, now: Date(timeIntervalSince1970: 0), timeZone: .utc)) else {
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
