import XCTest

@testable import ToDoCore

/// Which calendar `todo sync setup` takes among those a server lists.
final class CalendarChoiceTests: XCTestCase {
    private func calendar(_ name: String?, _ path: String, _ components: [String]) -> CalDAVClient.Calendar {
        CalDAVClient.Calendar(
            url: WebAddress(string: "https://dav.example.com/alice/\(path)/")!, displayName: name,
            components: components)
    }

    func test_theNamedOne_inAnyCase_orOneToMake_neverOneWithoutTasks() {
        let events = calendar("Work", "work-events", ["VEVENT"]), tasks = calendar("work", "work", ["VTODO"]),
            exact = calendar("Work ", "w2", [])
        XCTAssertEqual(CalendarChoice(named: "work", among: [events, tasks]), .found(tasks))
        XCTAssertEqual(CalendarChoice(named: "WORK", among: [events, tasks]), .found(tasks), "in any letter case")
        XCTAssertEqual(CalendarChoice(named: "Work ", among: [tasks, exact]), .found(exact), "the exact name first")
        XCTAssertEqual(CalendarChoice(named: "Home", among: [events, tasks]), .toMake(name: "Home"))
        XCTAssertEqual(
            CalendarChoice(named: "Work", among: [events]), .toMake(name: "Work"), "an events calendar is never taken")
    }

    func test_withoutAName_theOnlyOneForTasks() {
        let events = calendar("Events", "events", ["VEVENT"]), tasks = calendar("Tasks", "tasks", ["VTODO"]),
            mixed = calendar(nil, "mixed", [])
        XCTAssertEqual(CalendarChoice(named: nil, among: [events, tasks]), .found(tasks))
        XCTAssertEqual(CalendarChoice(named: nil, among: [events]), .noneHoldsTasks)
        XCTAssertEqual(
            CalendarChoice(named: nil, among: [tasks, mixed]), .several(["Tasks", "mixed"]),
            "a calendar that does not say takes any")
    }
}
