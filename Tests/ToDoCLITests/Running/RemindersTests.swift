import Foundation
import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoCLI

/// Reminders from the command line: given, shown, moved with a repeat, kept through iCalendar,
/// and printed by `todo remind` once each. The harness's clock is Sunday 22 November 2026, 10:30
/// in New York.
final class RemindersTests: HarnessTestCase {
    func test_remind_setsReminders_thatShowAndListAndJSONSay_andEditReplacesOrRemovesThem() {
        XCTAssertEqual(
            todo.succeed("add", "Call Mom", "--due", "fri 17:00", "--remind", "15m", "--remind", "1d"),
            "Added 1: Call Mom (due Friday 11/27/26 17:00, reminders Thursday 11/26/26 17:00, Friday 11/27/26 16:45)\n")
        XCTAssertEqual(
            todo.succeed("add", "Dentist", "--due", "dec 3", "--remind", "dec 2 18:00"),
            "Added 2: Dentist (due Thursday 12/03/26, reminder Wednesday 12/02/26 18:00)\n")
        XCTAssertEqual(todo.succeed("add", "Plain"), "Added 3: Plain\n")
        XCTAssertEqual(
            todo.succeed("list"),
            """
            1 [ ] Call Mom  11/27/26 17:00 ⏰
            2 [ ] Dentist   12/03/26 ⏰
            3 [ ] Plain

            """)
        let shown = todo.succeed("show", "1")
        XCTAssertTrue(
            shown.contains(
                """
                Reminders:   Friday 11/27/26 16:45 (15 minutes before the due)
                             Thursday 11/26/26 17:00 (1 day before the due)

                """), shown)
        XCTAssertTrue(todo.succeed("show", "2").contains("Reminders:   Wednesday 12/02/26 18:00\n"))
        // --json says when each rings, in seconds; the file keeps what it counts from.
        let json = todo.succeed("show", "1", "--json")
        XCTAssertTrue(
            json.contains(
                """
                  "alarms": [
                    {
                      "before": 900,
                      "rings": 1795815900
                    },
                """), json)
        XCTAssertTrue(
            String(decoding: todo.fileContents ?? Data(), as: UTF8.self).contains(
                #""alarms":[{"before":900},{"before":86400}]"#))

        XCTAssertEqual(
            todo.succeed("edit", "1", "--remind", "1h30m"),
            "Edited 1: Call Mom (due Friday 11/27/26 17:00, reminder Friday 11/27/26 15:30)\n")
        XCTAssertEqual(todo.succeed("edit", "1", "--no-remind"), "Edited 1: Call Mom (due Friday 11/27/26 17:00)\n")
        XCTAssertEqual(
            todo.succeed("list"),
            """
            1 [ ] Call Mom  11/27/26 17:00
            2 [ ] Dentist   12/03/26 ⏰
            3 [ ] Plain

            """)
        XCTAssertEqual(todo.succeed("history", "--limit", "1"), todo.succeed("history", "--limit", "1"))
    }

    func test_aReminderTodoCannotPlace_isAUsageError_andChangesNothing() {
        todo.succeed("add", "Call Mom", "--due", "fri 17:00", "--remind", "15m")
        let before = todo.fileContents
        for (arguments, message) in [
            (
                ["add", "Plain", "--remind", "15m"],
                "a reminder before the due needs a due date; give --due, or --no-remind"
            ),
            (
                ["add", "Day", "--due", "fri", "--remind", "fri"],
                "'--remind fri' is a day; a reminder rings at a time: give one, as 'fri 9:00', or a time before the due, as 15m"
            ),
            (
                ["add", "Soon", "--due", "fri", "--remind", "soonish"],
                "'--remind soonish' is neither a time before the due nor a date and time"
            ),
            (
                ["edit", "1", "--no-due"],
                "a reminder before the due needs a due date: 1 \"Call Mom\"; give --due, or --no-remind"
            ),
            (["edit", "1", "--remind", "15m", "--no-remind"], "'--remind' and '--no-remind' cannot be used together")
        ] {
            let outcome = todo.run(arguments, input: [])
            XCTAssertEqual(outcome.status, 64, "\(arguments): \(outcome)")
            XCTAssertTrue(outcome.stderr.hasPrefix("Error: \(message)\n"), "\(arguments): \(outcome.stderr)")
            XCTAssertEqual(outcome.stdout, "")
            XCTAssertEqual(todo.fileContents, before, "\(arguments) changed nothing")
        }
    }

    /// `--due … 09:00 --repeat daily --remind 10m`, checked: the next one rings at 08:50 the next
    /// day; a reminder at a set time moves with the due; the occurrence kept as done rings no more.
    func test_aRepeatingItemsReminder_movesWithIt() {
        todo.succeed(
            "add", "Water the plants", "--due", "mon 09:00", "--repeat", "daily", "--remind", "10m", "--remind",
            "mon 08:00")
        XCTAssertTrue(
            todo.succeed("check", "1").hasPrefix(
                "Checked 1: Water the plants (due Monday 11/23/26 09:00, repeats every day, reminders"))
        XCTAssertTrue(
            todo.succeed("show", "1").contains(
                """
                Reminders:   Tuesday 11/24/26 08:50 (10 minutes before the due)
                             Tuesday 11/24/26 08:00

                """))
        XCTAssertTrue(todo.succeed("show", "2").contains("Reminders:   -\n"), "the done occurrence")
        XCTAssertEqual(
            todo.succeed("list", "--all"),
            """
            1 [ ] Water the plants  11/24/26 09:00 ↻ ⏰

            Done
            2 [x] Water the plants  11/23/26 09:00

            """)
    }

    func test_remind_printsEachReminderOnce_neverADoneItems_andTheNextOnesWhenTheirTimeComes() throws {
        todo.succeed("add", "Call Mom", "--due", "10:40", "--remind", "15m")
        todo.succeed("add", "Pay rent", "--due", "11:30", "--remind", "30m")
        todo.succeed("add", "Done already", "--due", "10:50", "--remind", "30m")
        todo.succeed("check", "3")
        todo.succeed("add", "No reminder", "--due", "10:00")
        XCTAssertOutcome(
            todo.run("remind"),
            Outcome(
                status: 0,
                stdout: """
                    Sunday 11/22/26 10:25  1: Call Mom (due Sunday 11/22/26 10:40)

                    """, stderr: ""))
        // A second run right after prints nothing.
        XCTAssertOutcome(todo.run("remind"), Outcome(status: 0, stdout: "", stderr: ""))
        todo.now += 35 * 60
        let json = todo.run("remind", "--json")
        XCTAssertEqual(json.status, 0)
        guard case .array(let reminders) = try JSONValue(parsing: Array(json.stdout.utf8)), reminders.count == 1,
            case .object(let reminder) = reminders[0], case .object(let item)? = reminder["item"]
        else { return XCTFail(json.stdout) }
        XCTAssertEqual(reminder["rings"], .number("1795363200"), "11:00 in New York")
        XCTAssertEqual(reminder["alarm"], Alarm(.beforeDue(1800)).json)
        XCTAssertEqual(item["number"], .number("2"))
        XCTAssertEqual(item["title"], .string("Pay rent"))
        XCTAssertEqual(todo.succeed("remind"), "")
        // What was shown stays on this machine, beside the list, readable by its owner only.
        let log = todo.directory.appendingPathComponent("items.json.reminded")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: log.path)[.posixPermissions] as? Int, 0o600)
        XCTAssertFalse(
            String(decoding: todo.fileContents ?? Data(), as: UTF8.self).contains("shown"),
            "the list itself is untouched")
    }

    /// `--exec` runs a command for each reminder, its title and details as arguments; one that
    /// fails leaves the reminder for the next run, and says so with exit 1.
    func test_remind_exec_runsTheCommandForEach_andAFailureIsTriedAgain() throws {
        let delivered = todo.directory.appendingPathComponent("delivered.txt").path
        todo.succeed("add", "Call Mom", "--due", "10:40", "--remind", "15m")
        todo.succeed("add", "Take out the bins", "--due", "10:35", "--remind", "10m")
        let failing = todo.run("remind", "--exec", "exit 3")
        XCTAssertEqual(failing.status, 1, "\(failing)")
        XCTAssertEqual(failing.stderr, "Error: the reminder command failed (exit 3)\n")
        let command = "printf '%s|%s|%s\\n' \"$TODO_NUMBER\" \"$1\" \"$2\" >> '\(delivered)'"
        XCTAssertOutcome(
            todo.run("remind", "--exec", command),
            Outcome(
                status: 0,
                stdout: """
                    Sunday 11/22/26 10:25  1: Call Mom (due Sunday 11/22/26 10:40)
                    Sunday 11/22/26 10:25  2: Take out the bins (due Sunday 11/22/26 10:35)

                    """, stderr: ""))
        XCTAssertEqual(
            try String(contentsOfFile: delivered, encoding: .utf8),
            """
            1|Call Mom|Item 1, due Sunday 11/22/26 10:40
            2|Take out the bins|Item 2, due Sunday 11/22/26 10:35

            """)
        XCTAssertEqual(todo.succeed("remind", "--exec", command), "")
        XCTAssertEqual(todo.run("remind", "--exec", " ").status, 64)

        // A stand-in for notify-send, named alone: the title and the details follow it.
        let notify = todo.directory.appendingPathComponent("notify-send")
        let notified = todo.directory.appendingPathComponent("notified.txt").path
        try "#!/bin/sh\n[ \"$1\" = -- ] && shift\nprintf '[%s] [%s]\\n' \"$@\" >> '\(notified)'\necho shown\n".write(
            to: notify, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: notify.path)
        todo.succeed("add", "Stretch", "--due", "11/22/26 10:30", "--remind", "0m")
        XCTAssertOutcome(
            todo.run("remind", "--exec", notify.path),
            Outcome(
                status: 0,
                stdout: """
                    Sunday 11/22/26 10:30  3: Stretch (due Sunday 11/22/26 10:30)

                    """, stderr: ""))
        XCTAssertEqual(
            try String(contentsOfFile: notified, encoding: .utf8), "[Stretch] [Item 3, due Sunday 11/22/26 10:30]\n")
    }

    /// What a server or an import can put in a title reaches a reminder's command as text (issue
    /// 50): a title `--help` after `--` (it made notify-send print its help, and the reminder was
    /// never delivered), escapes in caret form (OSC 52 set the clipboard through `echo "$1"`), the
    /// raw title in TODO_TITLE; and a task with many alarms rings ten, its e-mail alarms none.
    func test_remindExec_aTitleIsNeverAnOptionNorEscapes_andOneTaskRingsTenAtMost() throws {
        let args = todo.directory.appendingPathComponent("args")
        let seen = todo.directory.appendingPathComponent("seen.txt").path
        try "#!/bin/sh\nfor a in \"$@\"; do printf '<%s>' \"$a\"; done >> '\(seen)'\necho >> '\(seen)'\n".write(
            to: args, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: args.path)
        var alarms = (1...15).map { minute in
            "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;VALUE=DATE-TIME:20261122T10\(String(format: "%02d", minute))00Z\r\nEND:VALARM\r\n"
        }
        alarms += (1...3).map { minute in
            "BEGIN:VALARM\r\nACTION:EMAIL\r\nTRIGGER;VALUE=DATE-TIME:20261122T10\(String(format: "%02d", 20 + minute))00Z\r\nEND:VALARM\r\n"
        }
        let calendar =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:loud@phone\r\nSUMMARY:--help\r\n" + alarms.joined()
            + "END:VTODO\r\nBEGIN:VTODO\r\nUID:sly@phone\r\nSUMMARY:Clip\u{1B}]52;c;aGk=\u{07}board\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\n"
            + "TRIGGER;VALUE=DATE-TIME:20261122T103000Z\r\nEND:VALARM\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let file = todo.directory.appendingPathComponent("phone.ics")
        try Data(calendar.utf8).write(to: file)
        todo.succeed("import", file.path)
        let outcome = todo.run("remind", "--exec", args.path)
        XCTAssertEqual(outcome.status, 0, "\(outcome)")
        XCTAssertEqual(outcome.stderr, "Not rung: 5 more reminders of 1 \"--help\" (at most 10 of one item a run)\n")
        let lines = try String(contentsOfFile: seen, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 11, lines.joined(separator: "\n"))
        XCTAssertEqual(lines.first, "<--><--help><Item 1>")
        XCTAssertTrue(lines.contains("<--><Clip^[]52;c;aGk=^Gboard><Item 2>"), lines.joined(separator: "\n"))
        XCTAssertEqual(todo.run("remind").stdout, "", "each rang once; the e-mail alarms never")
    }

    /// A phone's alarm that todo cannot ring as it is (a sound, REPEAT, ACKNOWLEDGED, X-…) keeps
    /// all of it through an import, an edit and an export; one counted from the start is said so.
    func test_aCalendarsAlarms_becomeReminders_andKeepWhatTodoDoesNotRead() throws {
        let file = todo.directory.appendingPathComponent("phone.ics")
        try """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        BEGIN:VTODO\r
        UID:dentist@phone\r
        SUMMARY:Dentist\r
        DTSTART:20261203T140000Z\r
        DUE:20261203T150000Z\r
        BEGIN:VALARM\r
        ACTION:AUDIO\r
        TRIGGER:-PT1H\r
        REPEAT:2\r
        DURATION:PT5M\r
        ATTACH;FMTTYPE=audio/basic:ftp://example.com/pub/sounds/bell-01.aud\r
        X-APPLE-DEFAULT-ALARM:FALSE\r
        ACKNOWLEDGED:20261203T130100Z\r
        END:VALARM\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Reminder\r
        TRIGGER;VALUE=DATE-TIME:20261202T230000Z\r
        END:VALARM\r
        END:VTODO\r
        END:VCALENDAR\r

        """.write(to: file, atomically: true, encoding: .utf8)
        todo.succeed("import", file.path)
        XCTAssertTrue(
            todo.succeed("show", "1").contains(
                """
                Reminders:   Thursday 12/03/26 08:00 (1 hour before the start)
                             Wednesday 12/02/26 18:00

                """))
        todo.succeed("edit", "1", "--title", "Dentist, bring the card")
        let exported = todo.succeed("export", "--format", "ical")
        XCTAssertTrue(
            exported.contains(
                """
                BEGIN:VALARM\r
                TRIGGER;RELATED=START:-PT1H\r
                ACTION:AUDIO\r
                REPEAT:2\r
                DURATION:PT5M\r
                ATTACH;FMTTYPE=audio/basic:ftp://example.com/pub/sounds/bell-01.aud\r
                X-APPLE-DEFAULT-ALARM:FALSE\r
                ACKNOWLEDGED:20261203T130100Z\r
                END:VALARM\r
                BEGIN:VALARM\r
                ACTION:DISPLAY\r
                TRIGGER;VALUE=DATE-TIME:20261202T230000Z\r
                DESCRIPTION:Reminder\r
                END:VALARM\r

                """), exported)
        // Taskwarrior and todo.txt have none: said once.
        let taskwarrior = todo.run("export", "--format", "taskwarrior")
        XCTAssertEqual(
            taskwarrior.stderr, "Note: Taskwarrior has no place for reminders (1 item); they were left out.\n")
        XCTAssertEqual(
            todo.run("export", "--format", "todotxt").stderr,
            "Note: todo.txt has no place for reminders (1 item); they were left out.\n")
        // todo.txt has no notes and no in-progress mark either: each named, with its count.
        XCTAssertEqual(todo.run("annotate", "1", "Bring", "the", "forms").status, 0)
        XCTAssertEqual(todo.run("start", "1").status, 0)
        XCTAssertEqual(
            todo.run("export", "--format", "todotxt").stderr,
            "Note: todo.txt has no place for reminders (1 item), annotations (1 item) and in-progress marks (1 item);"
                + " they were left out.\n")
        XCTAssertEqual(
            todo.run("export", "--format", "taskwarrior").stderr,
            "Note: Taskwarrior has no place for reminders (1 item); they were left out.\n")
        XCTAssertEqual(todo.run("export").stderr, "")
    }
}
