import Foundation
import TestSupport
import XCTest

/// Where lists, sync, undo and the account's calendars meet (issue 49), each as a user meets it,
/// against the simulator's in-process server (`SimulatedCalDAVServer`); the simulator found each
/// first (the seeds are in SyncSimulationTests' history and docs/sync.md).
final class SyncJunctionTests: HarnessTestCase {
    private var server: SimulatedCalDAVServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = SimulatedCalDAVServer()
        todo.transport = server
        todo.environment["TODO_SYNC_PASSWORD"] = "secret"
    }

    private func setUpSync(_ extra: String..., file: StaticString = #filePath, line: UInt = #line) {
        let outcome = todo.run(
            ["sync", "setup", server.root.absoluteString, "--user", "alice", "--calendar", "Tasks"] + extra, input: [])
        XCTAssertEqual(outcome.status, 0, "\(outcome)", file: file, line: line)
    }

    /// The tasks of a calendar, by summary.
    private func summaries(in slug: String) -> [String] {
        server.everything.filter { $0.slug == slug }.compactMap {
            ICalendarLines.values(of: "SUMMARY", in: $0.resource.text).first
        }.sorted()
    }

    private func phoneTask(_ summary: String, uid: String, status: String = "NEEDS-ACTION") -> String {
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:\(uid)",
            "DTSTAMP:20261122T090000Z",
            "LAST-MODIFIED:20261122T090000Z", "SUMMARY:\(summary)", "STATUS:\(status)", "END:VTODO", "END:VCALENDAR", ""
        ].joined(separator: "\r\n")
    }

    func test_listsThatHoldItemsWhenSetupRuns_eachGetTheirCalendar() throws {
        todo.succeed("add", "Buy milk")
        todo.succeed("add", "Send report", "--list", "Work")
        todo.succeed("add", "Fix fence", "--list", "Home")
        setUpSync()
        XCTAssertOutcome(
            todo.run("sync"),
            Outcome(
                status: 0,
                stdout: """
                    Sent 1: Buy milk
                    Sent 2: Send report
                    Sent 3: Fix fence
                    Synced the list default with "Tasks": received 0, sent 1, 0 conflicts.
                    Synced the list Home with "Home": received 0, sent 1, 0 conflicts.
                    Synced the list Work with "Work": received 0, sent 1, 0 conflicts.

                    """, stderr: ""))
        XCTAssertEqual(summaries(in: "tasks"), ["Buy milk"])
        XCTAssertEqual(summaries(in: "work"), ["Send report"])
        XCTAssertEqual(summaries(in: "home"), ["Fix fence"])
        // The phone checks the Work task: it stays in Work here.
        let report = try XCTUnwrap(server.everything.first { $0.slug == "work" })
        server.put(
            ICalendarLines.replacing(
                ["STATUS", "LAST-MODIFIED"], with: ["STATUS:COMPLETED", "LAST-MODIFIED:20261123T090000Z"],
                in: report.resource.text), named: report.name, in: "work")
        XCTAssertEqual(todo.run("sync").stdout.split(separator: "\n").first, "Checked 2: Send report")
        XCTAssertTrue(todo.succeed("show", "2").contains("List:        Work\n"))
    }

    func test_undoingASync_neverDeletesWhatThePhoneMade_andTheNextSyncReceivesItAgain() {
        setUpSync()
        todo.succeed("sync")
        server.put(phoneTask("Phone-made task", uid: "PHONE-1"), named: "PHONE-1.ics", in: "tasks")
        XCTAssertTrue(todo.succeed("sync").hasPrefix("Received 1: Phone-made task\n"))
        XCTAssertEqual(todo.run("undo").status, 0)
        XCTAssertEqual(todo.succeed("list"), "")
        XCTAssertOutcome(
            todo.run("sync"),
            Outcome(
                status: 0,
                stdout: """
                    Received 2: Phone-made task
                    Synced with "Tasks": received 1, sent 0, 0 conflicts.

                    """, stderr: ""))
        XCTAssertEqual(summaries(in: "tasks"), ["Phone-made task"], "still on the phone")
    }

    func test_aCalendarDeletedOnTheServer_isSaid_theOtherListsSync_andItsItemsStay() {
        todo.succeed("add", "Fix fence", "--list", "Home")
        todo.succeed("add", "Send report", "--list", "Work")
        setUpSync()
        todo.succeed("sync")
        server.deleteCalendar("home")
        todo.succeed("add", "Call Mom", "--list", "Work")
        XCTAssertOutcome(
            todo.run("sync"),
            Outcome(
                status: 0,
                stdout: """
                    Sent 3: Call Mom
                    Not synced: the list Home (its calendar http://127.0.0.1:5232/alice/home/ is gone from the server; its items stay here, and the next sync makes the calendar again and sends them)
                    Synced the list default with "Tasks": received 0, sent 0, 0 conflicts.
                    Synced the list Home with "Home": received 0, sent 0, 0 conflicts.
                    Synced the list Work with "Work": received 0, sent 1, 0 conflicts.

                    """, stderr: ""))
        XCTAssertEqual(todo.succeed("list", "--list", "Home"), "1 [ ] Fix fence --list Home\n")
        XCTAssertEqual(todo.run("sync").status, 0)
        XCTAssertEqual(summaries(in: "home"), ["Fix fence"], "made again, its item sent anew")
    }

    func test_everyCalendarOfTheAccount_arrivesInAListOfItsOwn_withAllLists() {
        for (slug, name) in [
            ("work", "work"), ("work-2", "WORK"), ("cafe", "Caf\u{E9}"), ("cafe-2", "Cafe\u{301}"),
            ("default", "DEFAULT")
        ] {
            server.makeCalendar(slug, displayName: name)
            server.put(phoneTask("In \(slug)", uid: "UID-\(slug)"), named: "UID-\(slug).ics", in: slug)
        }
        setUpSync("--all-lists")
        XCTAssertEqual(todo.run("sync").status, 0)
        XCTAssertEqual(todo.succeed("list", "--all").split(separator: "\n").count, 5, "every task arrived")
        XCTAssertEqual(
            todo.succeed("lists"),
            """
            default            0 open items
            Caf\u{E9}               1 open item
            Caf\u{E9} (cafe-2)      1 open item
            default (default)  1 open item
            work               1 open item
            WORK (work-2)      1 open item

            """)
    }

    func test_thePasswordOverPlainHTTP_goesToTheOriginGivenAtSetupOnly() {
        server.namedHome = "http://192.0.2.7:8080/alice/"
        let outcome = todo.run("sync", "setup", server.root.absoluteString, "--user", "alice")
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("http://192.0.2.7:8080/alice/"), outcome.stderr)
        XCTAssertFalse(server.requests.contains { $0.url.host == "192.0.2.7" }, "no request, no password, went there")
    }

    func test_aRefusedSetup_leavesNothingBehind() throws {
        todo.environment["TODO_SYNC_PASSWORD"] = "wrong"
        XCTAssertEqual(todo.run("sync", "setup", server.root.absoluteString, "--user", "alice").status, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: todo.directory.path), [])
    }
}

extension SyncJunctionTests {
    func test_aPhonesAlarmOnAWholeDayTask_comesBackAsItCame_afterAnEditHere() throws {
        let server = try XCTUnwrap(todo.transport as? SimulatedCalDAVServer)
        todo.environment["TODO_SYNC_PASSWORD"] = "secret"
        XCTAssertEqual(
            todo.run(["sync", "setup", server.root.absoluteString, "--user", "alice", "--calendar", "Tasks"], input: [])
                .status, 0)
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VTODO", "UID:ALARM-1",
            "DTSTAMP:20261122T090000Z",
            "LAST-MODIFIED:20261122T090000Z", "SUMMARY:Pay rent", "DUE;VALUE=DATE:20261201", "BEGIN:VALARM",
            "ACTION:DISPLAY",
            "DESCRIPTION:Reminder", "TRIGGER:-PT30M", "END:VALARM", "END:VTODO", "END:VCALENDAR", ""
        ].joined(separator: "\r\n")
        server.put(text, named: "ALARM-1.ics", in: "tasks")
        XCTAssertEqual(todo.run(["sync"], input: []).status, 0)
        XCTAssertEqual(todo.run(["edit", "1", "--title", "Pay the rent"], input: []).status, 0)
        XCTAssertEqual(todo.run(["sync"], input: []).status, 0)
        var sent = try XCTUnwrap(server.everything.first { $0.name == "ALARM-1.ics" }).resource.text
        XCTAssertEqual(ICalendarLines.values(of: "SUMMARY", in: sent), ["Pay the rent"])
        XCTAssertEqual(ICalendarLines.values(of: "TRIGGER", in: sent), ["-PT30M"], sent)
        // Its due moved, in another zone: the alarm still 30 minutes before the day (written RELATED=END,
        // the due, which a task without a start is timed from either way).
        todo.environment["TZ"] = "Asia/Tokyo"
        XCTAssertEqual(todo.run(["edit", "1", "--due", "2026-12-02"], input: []).status, 0)
        XCTAssertEqual(todo.run(["sync"], input: []).status, 0)
        sent = try XCTUnwrap(server.everything.first { $0.name == "ALARM-1.ics" }).resource.text
        XCTAssertEqual(ICalendarLines.values(of: "DUE", in: sent), ["20261202"], sent)
        XCTAssertEqual(ICalendarLines.values(of: "TRIGGER", in: sent), ["-PT30M"], sent)
    }
}

extension SyncJunctionTests {
    /// The simulator's own check of the promise that a sync with nothing changed is one request,
    /// at 10,000 items across three lists: the lists' linking, the search for tasks that left and
    /// the undo's bookkeeping cost nothing there.
    func test_aSyncWithNothingChanged_ofTenThousandItemsInThreeLists_isOneRequestPerCalendar() throws {
        let server = try XCTUnwrap(todo.transport as? SimulatedCalDAVServer)
        // Written as the file's format says (`todo add - --list` spells each item's list anew
        // against the whole list: slow at this size, and not what is measured here).
        let items = (1...10_000).map { number in
            #"{"id":"\#(UUID().uuidString)","title":"Item \#(number)","done":false,"number":\#(number)"#
                + (number % 3 == 1 ? #","list":"Work"}"# : number % 3 == 2 ? #","list":"Home"}"# : "}")
        }
        try Data((#"{"version":1,"nextNumber":10001,"items":["# + items.joined(separator: ",") + "]}").utf8).write(
            to: todo.fileURL)
        XCTAssertEqual(
            todo.run(["sync", "setup", server.root.absoluteString, "--user", "alice", "--calendar", "Tasks"], input: [])
                .status, 0)
        XCTAssertEqual(todo.run(["sync"], input: []).status, 0)
        XCTAssertEqual(server.everything.count, 10_000)
        let before = server.requests.count
        XCTAssertEqual(todo.run(["sync"], input: []).status, 0)
        XCTAssertEqual(
            server.requests.dropFirst(before).map(\.method), ["REPORT", "REPORT", "REPORT"],
            "one sync-collection report a calendar")
    }

    /// Weekdays at 11:00 in New York, checked on a laptop in Tokyo after going through the server:
    /// Friday 11:00 New York, not Monday in Tokyo (simulator seeds 25, 32, 40, 1006, 2036).
    func test_aRepeatRule_isFollowedInTheZoneItWasMadeIn_whereverItIsChecked() throws {
        todo.environment["TZ"] = "America/New_York"
        todo.succeed("add", "Stand-up", "--due", "thursday 11:00", "--repeat", "weekdays")
        XCTAssertTrue(
            todo.succeed("show", "1").contains(
                "Repeats:     every weekday (FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR), in America/New_York\n"))
        setUpSync()
        todo.succeed("sync")
        let sent = try XCTUnwrap(server.everything.first).resource.text
        XCTAssertTrue(sent.contains("DUE;TZID=America/New_York:20261126T110000\r\n"), sent)
        XCTAssertTrue(sent.contains("BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\n"), sent)

        let tokyo = try Harness()
        tokyo.transport = server
        tokyo.environment["TZ"] = "Asia/Tokyo"
        tokyo.environment["TODO_SYNC_PASSWORD"] = "secret"
        tokyo.succeed("sync", "setup", server.root.absoluteString, "--user", "alice", "--calendar", "Tasks")
        tokyo.succeed("sync")
        XCTAssertTrue(tokyo.succeed("check", "1").contains("; next due Saturday 11/28/26 01:00, "))
        XCTAssertTrue(tokyo.succeed("show", "1").contains(", in America/New_York\n"))
        tokyo.succeed("sync")
        todo.succeed("sync")
        XCTAssertTrue(todo.succeed("show", "1").contains("Due:         11/27/26 11:00 (Friday)\n"))
        // Checked at home too, it stays New York's weekdays: Monday, not Saturday.
        XCTAssertTrue(todo.succeed("check", "1").contains("; next due Monday 11/30/26 11:00, "))
    }

    /// DAViCal and SOGo take two writes of one version at once: setup finds it, and from then on
    /// every write is read back, so that a phone's write at the same moment is merged, not lost
    /// (simulator seed 2019).
    func test_setup_findsAServerThatTakesRacingWrites_andNoWriteIsLostToOne() throws {
        let ordered = todo.run(
            ["sync", "setup", server.root.absoluteString, "--user", "alice", "--calendar", "Tasks"], input: [])
        XCTAssertEqual(ordered.status, 0)
        XCTAssertFalse(ordered.stdout.contains("two writes"), ordered.stdout)
        server = SimulatedCalDAVServer(habit: .davical)
        todo.transport = server
        todo.succeed("sync", "forget")
        let racing = todo.run(
            ["sync", "setup", server.root.absoluteString, "--user", "alice", "--calendar", "Tasks"], input: [])
        XCTAssertEqual(
            racing.stdout,
            """
            Found the calendar "Tasks" at \(server.root.absoluteString)alice/tasks/ for alice, with 0 tasks.
            The server takes two writes of one version at once (If-Match is no lock there): each sync reads its writes back.
            Run todo sync to sync.

            """)
        XCTAssertEqual(server.everything.count, 0, "the probe is deleted")
        todo.succeed("add", "Call Mom")
        todo.succeed("sync")
        todo.succeed("edit", "1", "--title", "Call Mom today")
        server.fault(.racedByAnotherWriter, afterRequests: 0)
        todo.succeed("sync")
        let phone = try XCTUnwrap(server.racedWrites.first)
        let text = try XCTUnwrap(server.everything.first).resource.text
        XCTAssertEqual(ICalendarLines.values(of: "SUMMARY", in: text), ["Call Mom today"])
        XCTAssertEqual(ICalendarLines.values(of: "DESCRIPTION", in: text), [phone.description])
        XCTAssertTrue(todo.succeed("show", "1").contains("Description: \(phone.description)\n"))
    }

    /// After `sync forget` and `setup`, an item whose task is gone from the server and its twin
    /// whose task is there each keep their own task (simulator seed 300289: the first took its
    /// twin's task by content, and two items held one UID, an edit of the one going to the other's).
    func test_afterForget_anItemWhoseTaskIsGone_neverTakesItsTwinsTask() throws {
        setUpSync()
        todo.succeed("add", "Water")
        todo.succeed("sync")
        server.put(phoneTask("Water", uid: "twin-uid"), named: "twin-uid.ics", in: "tasks")
        todo.succeed("sync")
        todo.succeed("sync", "forget")
        let mine = try XCTUnwrap(server.everything.first { $0.name != "twin-uid.ics" })
        server.delete(named: mine.name, in: "tasks")
        setUpSync()
        todo.succeed("sync")
        XCTAssertEqual(
            Set(server.everything.compactMap { $0.resource.uid?.uppercased() }).count, 2,
            "\(server.everything.map(\.name))")
        todo.succeed("edit", "1", "--title", "Water the roses")
        todo.succeed("sync")
        XCTAssertEqual(summaries(in: "tasks"), ["Water", "Water the roses"])
        XCTAssertEqual(
            ICalendarLines.values(
                of: "SUMMARY", in: try XCTUnwrap(server.everything.first { $0.name == "twin-uid.ics" }).resource.text),
            ["Water"])
    }

    /// A list moved into one whose calendar another side deleted, after that side had moved the
    /// list's tasks there: once the calendar is back with them, each item takes its own task
    /// again (simulator seed 400362, Cyrus's habits: the record of the task's old place outlived
    /// its deletion, stood for it, and the task come back was left alone for good).
    func test_aListMovedIntoACalendarDeletedMeanwhile_takesItsTasksBack_whenTheCalendarIsBack() throws {
        todo.succeed("add", "Fix fence", "--list", "Errands")
        todo.succeed("add", "Mow", "--list", "Home")
        setUpSync()
        todo.succeed("sync")
        // Another machine moves the Errands task to Home; then a phone deletes Home.
        let fence = try XCTUnwrap(server.everything.first { $0.slug == "errands" })
        server.delete(named: fence.name, in: "errands")
        server.put(fence.resource.text, named: fence.name, in: "home")
        server.deleteCalendar("home")
        todo.succeed("lists", "remove", "Errands", "--to", "Home")
        XCTAssertTrue(todo.succeed("sync").contains("Not synced: the list Home"))
        // The other machine sends its Home again.
        server.makeCalendar("home", displayName: "Home")
        server.put(fence.resource.text, named: fence.name, in: "home")
        let back = todo.succeed("sync")
        XCTAssertFalse(back.contains("Left alone"), back)
        todo.succeed("edit", "1", "--title", "Fix the fence")
        todo.succeed("sync")
        XCTAssertEqual(summaries(in: "home"), ["Fix the fence", "Mow"])
        XCTAssertEqual(summaries(in: "errands"), [])
    }
}
