import Foundation
import TestSupport
import ToDoCore
import XCTest

/// A list over a megabyte keeps its changes in `items.json.journal` (see `ListJournalTests`):
/// through the binary, every command sees them, a SIGKILL at any moment leaves the old list or
/// the new, and processes changing it at once lose nothing.
final class LongListJournalTests: BinaryTestCase {
    override var extraEnvironment: [String: String] { ["TODO_LOCK_TIMEOUT": "30"] }

    private var journalURL: URL { directory.file("items.json.journal") }

    /// 6,000 open items, about 1.2 MB: a list that keeps a journal.
    private func writeLongList() throws {
        var text = "{\n  \"version\": 2,\n  \"nextNumber\": 6001,\n  \"revision\": 1,\n  \"items\": ["
        for number in 1...6_000 {
            text += number == 1 ? "\n    " : ",\n    "
            text +=
                #"{"id":"\#(UUID().uuidString)","number":\#(number),"title":"item \#(number) with words to make the list longer","done":false,"createdAt":1795000000,"modifiedAt":1795000000}"#
        }
        text += "\n  ]\n}\n"
        try Data(text.utf8).write(to: fileURL)
        XCTAssertGreaterThan(text.utf8.count, JSONFileStore.journalFromBytes)
    }

    func test_everyCommandSeesTheJournalsChanges() throws {
        try writeLongList()
        XCTAssertOutcome(
            try todo.run(["add", "Call Mom"]), Outcome(status: 0, stdout: "Added 6001: Call Mom\n", stderr: ""))
        // The first change wrote the list whole, saying it goes on in a journal; the next ones do not.
        let file = try Data(contentsOf: fileURL)
        XCTAssertTrue(String(decoding: file.prefix(20), as: UTF8.self).hasPrefix("{\n  \"version\": 3,"))
        XCTAssertOutcome(
            try todo.run(["add", "Buy milk", "--due", "2026-12-01"]),
            Outcome(status: 0, stdout: "Added 6002: Buy milk (due Tuesday 12/01/26)\n", stderr: ""))
        XCTAssertEqual(try todo.run(["check", "6001"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: fileURL), file)
        XCTAssertEqual(try String(contentsOf: journalURL, encoding: .utf8).split(separator: "\n").count, 2)

        XCTAssertEqual(try todo.run(["show", "6001"]).stdout.contains("Status:      done"), true)
        let json = try todo.run(["list", "--json", "--search", "milk"])
        XCTAssertEqual(json.status, 0)
        XCTAssertTrue(
            json.stdout.contains(#""title" : "Buy milk""#) || json.stdout.contains(#""title":"Buy milk""#), json.stdout)
        let export = try todo.run(["export"])
        XCTAssertEqual(export.stdout.components(separatedBy: #""number":"#).count - 1, 6_002)

        XCTAssertOutcome(
            try todo.run(["undo"]),
            Outcome(status: 0, stdout: "Undid change 4: todo check 6001\n  Unchecked 6001: Call Mom\n", stderr: ""))
        XCTAssertTrue(try todo.run(["show", "6001"]).stdout.contains("Status:      open"))
        XCTAssertTrue(try todo.run(["history"]).stdout.contains("todo add 'Buy milk' --due 2026-12-01"))

        // The list's own file, without its journal, is not what an import should take.
        try FileManager.default.copyItem(at: fileURL, to: directory.file("copy.json"))
        let imported = try todo.run(["import", "copy.json"])
        XCTAssertNotEqual(imported.status, 0)
        XCTAssertTrue(
            imported.stderr.contains("a long list's own file, whose latest changes are in its journal"), imported.stderr
        )
    }

    /// A long list is mapped, not read (`FileSystem.readOwnFile(mapping:)`): another program
    /// cutting the file short under todo makes touching the lost pages raise SIGBUS, which todo
    /// reports as an unreadable list, exit 4, not a crash, having changed nothing. (The signal is
    /// sent here while todo waits for the list's lock: the race itself cannot be timed.)
    func test_aMappedListCutShort_isReportedAsUnreadable_notACrash() throws {
        try writeLongList()
        XCTAssertEqual(try todo.run(["add", "first"]).status, 0)
        let before = try Data(contentsOf: fileURL)
        let descriptor = open(directory.file("items.json.lock").path, O_RDWR)
        defer { close(descriptor) }
        XCTAssertEqual(flock(descriptor, LOCK_EX), 0)
        let running = try todo.start(["add", "second"])
        usleep(500_000)
        kill(running.processIdentifier, SIGBUS)
        XCTAssertOutcome(
            running.finish(),
            Outcome(
                status: 4, stdout: "",
                stderr: """
                    Error: the list's file was cut short by another program while todo read it; todo stopped, no change was half made: run the command again

                    """))
        flock(descriptor, LOCK_UN)
        XCTAssertEqual(try Data(contentsOf: fileURL), before)
        XCTAssertEqual(try todo.run(["list"]).stdout.split(separator: "\n").count, 6_001)
    }

    /// The real race: another program cuts a long list short (`truncate`) at a random moment while
    /// `todo list` reads it, every item, having no index. Each run read the list first (exit 0),
    /// read the short file (exit 4, a JSON error), or was reading the mapped file when it was cut
    /// (exit 4, SIGBUS reported as such); none dies of a signal, and the last is seen.
    func test_aMappedListCutShortWhileRead_isReportedAsUnreadable() throws {
        var text = "{\n  \"version\": 2,\n  \"nextNumber\": 30001,\n  \"items\": ["
        for number in 1...30_000 {
            text += number == 1 ? "\n    " : ",\n    "
            text +=
                #"{"id":"\#(UUID().uuidString)","number":\#(number),"title":"item \#(number) with words to make the list longer","done":false,"createdAt":1795000000,"modifiedAt":1795000000}"#
        }
        let list = Data((text + "\n  ]\n}\n").utf8)
        var random = SeededGenerator(seed: 0xB05)
        var outcomes: [String: Int] = [:]
        for round in 0..<40 where outcomes["cut short while read", default: 0] < 2 {
            try list.write(to: fileURL)
            let running = try todo.start(["list"])
            usleep(useconds_t.random(in: 0...150_000, using: &random))
            XCTAssertEqual(truncate(fileURL.path, 100_000), 0)
            let outcome = running.finish()
            XCTAssertEqual(running.process.terminationReason, .exit, "round \(round): \(outcome.stderr)")
            let kind =
                outcome.status == 0
                ? "read before"
                : outcome.stderr.contains("cut short by another program") ? "cut short while read" : "read cut short"
            XCTAssertTrue(
                outcome.status == 0 || outcome.status == 4, "round \(round): \(outcome.status) \(outcome.stderr)")
            if kind == "cut short while read" {
                XCTAssertEqual(
                    outcome.stderr,
                    "Error: the list's file was cut short by another program while todo read it; todo stopped, no change was half made: run the command again\n"
                )
            }
            outcomes[kind, default: 0] += 1
        }
        print("cut short rounds:", outcomes.sorted { $0.key < $1.key })
        XCTAssertGreaterThan(outcomes["cut short while read", default: 0], 0)
    }

    func test_sigkillAtRandomMomentsOfJournaledChanges_leavesTheOldListOrTheNew() throws {
        try writeLongList()
        XCTAssertEqual(try todo.run(["add", "first"]).status, 0)
        var random = SeededGenerator(seed: 0x0A_11_5E)
        let started = Date()
        XCTAssertEqual(try todo.run(["add", "measured"]).status, 0)
        let duration = Date().timeIntervalSince(started)

        var outcomes: [String: Int] = [:]
        for round in 0..<24 {
            let before = try JSONFileStore(fileURL: fileURL).load().allItems
            let running = try todo.start(
                round.isMultiple(of: 3) ? ["check", "\(round + 1)"] : ["add", "round \(round)"])
            usleep(useconds_t(Double.random(in: 0...(duration * 1.2), using: &random) * 1_000_000))
            kill(running.processIdentifier, SIGKILL)
            let outcome = running.finish()
            let killed = running.process.terminationReason == .uncaughtSignal

            let after = try JSONFileStore(fileURL: fileURL).load()
            let changed = after.allItems != before
            if round.isMultiple(of: 3) {
                XCTAssertEqual(after.allItems.count, before.count, "round \(round)")
                XCTAssertEqual(after.doneItems.map(\.number), changed ? [round + 1] + [] : [], "round \(round)")
            } else {
                XCTAssertTrue(
                    !changed
                        || after.toDoItems.map(\.title) == before.filter { !$0.done }.map(\.title) + ["round \(round)"],
                    "round \(round)")
            }
            if !killed { XCTAssertEqual(outcome.status, 0, "round \(round): \(outcome)") }
            if round.isMultiple(of: 3), changed {
                // Back as it was, for the next check round to start from open items only.
                XCTAssertEqual(try todo.run(["uncheck", "\(round + 1)"]).status, 0)
            }
            XCTAssertEqual(
                try todo.run(["add", "after round \(round)"]).status, 0,
                "round \(round): the next command must not be blocked")
            outcomes[!killed ? "finished" : changed ? "killed after the change" : "killed before it", default: 0] += 1
        }
        print("journal crash rounds (a change took \(Int(duration * 1000)) ms):", outcomes.sorted { $0.key < $1.key })
        let final = try JSONFileStore(fileURL: fileURL).load()
        XCTAssertEqual(Set(final.allItems.map(\.number)).count, final.allItems.count)
        XCTAssertEqual(Set(final.allItems.map(\.id)).count, final.allItems.count)
    }

    func test_processesChangingTheListAtOnce_loseNothing() throws {
        try writeLongList()
        XCTAssertEqual(try todo.run(["add", "first"]).status, 0)
        // 4 × 20 changes: past the journal's 64 lines, so it is folded while others wait.
        let script =
            "for p in 1 2 3 4; do (for i in $(seq 20); do todo add \"p$p $i\" >/dev/null || echo failed; done) & done; wait"
        let outcome = try todo.shell(script)
        XCTAssertEqual(outcome.stdout, "")
        XCTAssertEqual(outcome.stderr, "")
        let list = try JSONFileStore(fileURL: fileURL).load()
        XCTAssertEqual(list.toDoCount, 6_000 + 1 + 80)
        XCTAssertEqual(Set(list.allItems.map(\.number)).count, list.allItems.count)
        XCTAssertEqual(list.nextNumber, 6_082)
        for process in 1...4 {
            XCTAssertEqual(
                list.toDoItems.filter { $0.title.hasPrefix("p\(process) ") }.map(\.title),
                (1...20).map { "p\(process) \($0)" })
        }
    }

    /// Another program adds an item to the list file as docs/file.md allows (the next number,
    /// the next number counted up): the journal continues the file as it was, and every command
    /// refuses it (exit 4), naming both files and the way out, which works; never two items of
    /// one number.
    func test_aListFileAnotherProgramChanged_refusesItsJournal_andTheWayOutWorks() throws {
        try writeLongList()
        for title in ["Call Mom", "Buy milk"] { XCTAssertEqual(try todo.run(["add", title]).status, 0) }
        var text = try String(contentsOf: fileURL, encoding: .utf8)
        XCTAssertTrue(text.contains("\"nextNumber\": 6002,"))
        text = text.replacingOccurrences(of: "\"nextNumber\": 6002,", with: "\"nextNumber\": 6003,")
            .replacingOccurrences(
                of: "\"items\": [",
                with:
                    "\"items\": [{\"id\":\"\(UUID().uuidString)\",\"number\":6002,\"title\":\"From a script\",\"done\":false},"
            )
        try Data(text.utf8).write(to: fileURL)
        let journal = journalURL.path
        let refusal = Outcome(
            status: 4, stdout: "",
            stderr: "Error: cannot read \(journal): its changes from 3 on continue another version of \(fileURL.path)"
                + " (changed by another program, or put back from a copy, since they were written), and were not applied to it. To use the list as"
                + " \(fileURL.path) holds it now, move the journal away (mv \(journal) \(journal).old); the file was left unchanged\n"
        )
        for arguments in [["show", "6002"], ["export"], ["add", "More"]] {
            XCTAssertEqual(try todo.run(arguments), refusal, "\(arguments)")
        }
        XCTAssertEqual(rename(journal, journal + ".old"), 0)
        XCTAssertEqual(try todo.run(["show", "6002"]).stdout.split(separator: "\n").first, "Title:       From a script")
        XCTAssertOutcome(try todo.run(["add", "More"]), Outcome(status: 0, stdout: "Added 6003: More\n", stderr: ""))
    }

    /// A journal lost (or a list file put back from a copy without it): the next change says that
    /// the history knows changes the list does not, and keeps them there.
    func test_aLostJournal_isSaid_andTheHistoryKeepsItsChanges() throws {
        try writeLongList()
        for title in ["Call Mom", "Buy milk", "Water plants"] { XCTAssertEqual(try todo.run(["add", title]).status, 0) }
        try FileManager.default.removeItem(at: journalURL)
        // The lost items' numbers (6002, 6003) are not given again.
        XCTAssertOutcome(
            try todo.run(["add", "Pay rent"]),
            Outcome(
                status: 0, stdout: "Added 6004: Pay rent\n",
                stderr: """
                    Warning: the history of \(fileURL.path) records changes 3–4, which the list does not hold (its journal was lost or left behind, \
                    or the list file was put back from a copy or written by another program without its revision); they stay in the history \
                    (todo history), and this change is numbered after them

                    """))
        let history = try todo.run(["history"]).stdout
        for title in ["'Buy milk'", "'Water plants'", "'Pay rent'"] {
            XCTAssertTrue(history.contains("todo add \(title)"), history)
        }
        XCTAssertEqual(try todo.run(["add", "Call the bank"]).stderr, "")
    }

    /// A reader that read the list file just before it was written whole, and stalled until one
    /// more change was journaled, finds the new file's journal: it reads the list again, never
    /// reports a healthy list unreadable (before: "line 1 is change 67, where change 3 was due",
    /// exit 4). The reader is stopped as it opens the journal by a shim loaded before libc
    /// (`LD_PRELOAD`), so the moment is exact.
    func test_aReaderStalledAcrossAFold_readsTheListAgain() throws {
        try writeLongList()
        for title in ["first", "second"] { XCTAssertEqual(try todo.run(["add", title]).status, 0) }
        let reader = try startStoppedAtTheJournal(["list", "--search", "second"])
        // Past 64 lines: the list is written whole, its journal removed; then one more change.
        let changes = try todo.shell("for i in $(seq 66); do todo add \"more $i\" >/dev/null || exit 1; done")
        XCTAssertEqual(changes.status, 0, changes.stderr)
        kill(reader.processIdentifier, SIGCONT)
        XCTAssertEqual(reader.finish(), Outcome(status: 0, stdout: "6002 [ ] second\n", stderr: ""))
    }

    /// The changes a lost journal held are in the history before the next change too: `history`
    /// shows them and `undo` takes them into account (before, a bare undo took back an older
    /// change of one's own). Undoing a lost remove puts its item back under a number never given
    /// again, and the list stays readable (it was refused at once, "has the number 6002").
    func test_changesALostJournalHeld_areUndoneAsTheHistorySaysThem_andTheListStaysReadable() throws {
        try writeLongList()
        for arguments in [["add", "first"], ["add", "second"], ["remove", "6002"]] {
            XCTAssertEqual(try todo.run(arguments).status, 0)
        }
        try FileManager.default.removeItem(at: journalURL)
        XCTAssertTrue(try todo.run(["history"]).stdout.contains("todo remove 6002"))
        // The lost remove's item is not in the list: undo refuses to take it back as it is.
        XCTAssertEqual(try todo.run(["check", "1"]).status, 0)
        XCTAssertTrue(try todo.run(["undo"]).stdout.hasPrefix("Undid change 5: todo check 1\n"))
        let putBack = try todo.run(["undo"])
        XCTAssertEqual(putBack.status, 0, putBack.stderr)
        XCTAssertTrue(putBack.stdout.contains("Restored 6002: second"), putBack.stdout)
        XCTAssertEqual(
            try todo.run(["list", "--search", "second"]), Outcome(status: 0, stdout: "6002 [ ] second\n", stderr: ""))
        XCTAssertOutcome(try todo.run(["add", "third"]), Outcome(status: 0, stdout: "Added 6003: third\n", stderr: ""))
    }

    /// A version 2 file (or a bare array) written by another program over a long list's, its
    /// journal beside it: refused as any other changed file, never read without the journal and
    /// the journal then removed by the next change (before, its changes were lost in silence).
    func test_aJournalBesideAFileRewrittenWithoutIt_isRefused() throws {
        try writeLongList()
        for title in ["first", "second"] { XCTAssertEqual(try todo.run(["add", title]).status, 0) }
        let text = try String(contentsOf: fileURL, encoding: .utf8)
        for rewritten in [
            text.replacingOccurrences(of: "\"version\": 3,", with: "\"version\": 2,"),
            "[{\"id\":\"\(UUID().uuidString)\",\"title\":\"book\",\"done\":false}]"
        ] {
            try Data(rewritten.utf8).write(to: fileURL)
            for arguments in [["show", "6001"], ["add", "More"]] {
                let outcome = try todo.run(arguments)
                XCTAssertEqual(outcome.status, 4, "\(arguments): \(outcome)")
                XCTAssertTrue(
                    outcome.stderr.contains("its changes from 3 on continue another version of"), outcome.stderr)
            }
            XCTAssertTrue(FileManager.default.fileExists(atPath: journalURL.path))
        }
    }

    /// Two changes that each think they hold the lock (its file removed while the first was about
    /// to write its journal line): the second's line is never cut off by the first, which starts
    /// again on the list the second left (before, both exited 0 and the second's add was lost).
    func test_aLockFileRemovedDuringAJournaledChange_losesNoChange() throws {
        try writeLongList()
        XCTAssertEqual(try todo.run(["add", "first"]).status, 0)
        let a = try startStoppedAtTheJournal(["add", "from A"], when: "write")
        XCTAssertEqual(unlink(fileURL.path + ".lock"), 0)
        XCTAssertOutcome(
            try todo.run(["add", "from B"]), Outcome(status: 0, stdout: "Added 6002: from B\n", stderr: ""))
        kill(a.processIdentifier, SIGCONT)
        XCTAssertEqual(a.finish(), Outcome(status: 0, stdout: "Added 6003: from A\n", stderr: ""))
        XCTAssertEqual(try todo.run(["list", "--search", "from"]).stdout, "6002 [ ] from B\n6003 [ ] from A\n")
        XCTAssertTrue(try todo.run(["history"]).stdout.contains("todo add 'from B'"))
    }

    /// The index is used only for the very file it was made from: an edit in place of the same
    /// size with its modification time put back (numbers 17 and 71 swapped) is seen, since the
    /// status-change time no program can set has moved (before, `show 17` showed the item now
    /// numbered 71).
    func test_anEditInPlaceWithItsTimePutBack_isSeen_notTheStaleIndex() throws {
        try writeLongList()
        XCTAssertEqual(try todo.run(["add", "first"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: fileURL.path + ".index"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path))
        var before = stat()
        XCTAssertEqual(stat(fileURL.path, &before), 0)
        var text = try Data(contentsOf: fileURL)
        for (from, to) in [
            ("\"number\":17,\"title\":\"item 17 ", "\"number\":71,\"title\":\"item 17 "),
            ("\"number\":71,\"title\":\"item 71 ", "\"number\":17,\"title\":\"item 71 ")
        ] {
            let range = try XCTUnwrap(text.firstRange(of: Data(from.utf8)))
            text.replaceSubrange(range, with: Data(to.utf8))
        }
        let handle = try FileHandle(forUpdating: fileURL)
        try handle.write(contentsOf: text)
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, fileURL.path, &times, 0), 0)
        XCTAssertTrue(try todo.run(["show", "17"]).stdout.hasPrefix("Title:       item 71 with words"))
    }

    /// `arguments` run with the shim below loaded, stopped as the shim stops it (`when`: `write`).
    private func startStoppedAtTheJournal(_ arguments: [String], when: String = "any") throws -> RunningProcess {
        let shim = directory.file("stop-at-journal.so")
        if !FileManager.default.fileExists(atPath: shim.path) {
            let source = directory.file("stop-at-journal.c")
            try Data(Self.stopAtJournal.utf8).write(to: source)
            let compiled = try todo.shell("cc -shared -fPIC -o '\(shim.path)' '\(source.path)' -ldl")
            try XCTSkipUnless(compiled.status == 0, "no C compiler for the shim: \(compiled.stderr)")
        }
        todo.environment["LD_PRELOAD"] = shim.path
        todo.environment["STOP_AT_JOURNAL"] = when
        let process = try todo.start(arguments)
        todo.environment["LD_PRELOAD"] = nil
        todo.environment["STOP_AT_JOURNAL"] = nil
        for _ in 0..<1_000 {
            let status =
                (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            if status.contains("State:\tT") { return process }
            usleep(10_000)
        }
        _ = process.finish()
        throw XCTSkip("todo did not stop at the journal (no /proc, or the shim was not loaded)")
    }

    /// Stops the process (SIGSTOP) the first time it opens a file whose name ends in `.journal`
    /// (with `STOP_AT_JOURNAL=write`, the first time it opens one to write).
    private static let stopAtJournal = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <fcntl.h>
        #include <signal.h>
        #include <stdarg.h>
        #include <stdlib.h>
        #include <string.h>
        #include <sys/types.h>
        static int stopped;
        static void stopAtJournal(const char *path, int flags) {
            size_t length = strlen(path);
            const char *when = getenv("STOP_AT_JOURNAL");
            if (when && strcmp(when, "write") == 0 && (flags & O_ACCMODE) == O_RDONLY) return;
            if (!stopped && length >= 8 && strcmp(path + length - 8, ".journal") == 0) { stopped = 1; raise(SIGSTOP); }
        }
        #define OPEN(name) \\
            int name(const char *path, int flags, ...) { \\
                static int (*real)(const char *, int, ...); \\
                if (!real) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name); \\
                mode_t mode = 0; \\
                if (flags & O_CREAT) { va_list list; va_start(list, flags); mode = (mode_t)va_arg(list, int); va_end(list); } \\
                stopAtJournal(path, flags); \\
                return real(path, flags, mode); \\
            }
        OPEN(open)
        OPEN(open64)

        """
}
