import Foundation
import TestSupport
import ToDoCore
import ToDoModel
import XCTest

/// A list in a folder others can write to (a sticky one, as /tmp): what another user plants beside
/// it is never followed, filled, truncated, made private or used, and the list never passes to
/// them. Another user is played by uid 65534 (nobody), so these tests need root.
final class SharedFolderTests: XCTestCase {
    static let nobody: uid_t = 65534

    var temporary: TemporaryDirectory!
    var todo: BinaryRunner!
    var folder: URL { temporary.url }
    var list: URL { folder.appendingPathComponent("items.json") }
    /// Files of a victim that a planted link points to, in a folder only root may write to.
    var victims: URL { folder.appendingPathComponent("victim") }

    override func setUpWithError() throws {
        try XCTSkipUnless(geteuid() == 0, "these tests play another user with chown, which needs root")
        temporary = try TemporaryDirectory()
        XCTAssertEqual(chmod(folder.path, 0o1777), 0)
        try FileManager.default.createDirectory(at: victims, withIntermediateDirectories: false)
        todo = BinaryRunner(
            environment: ["TODO_FILE": list.path, "TZ": "UTC", "HOME": folder.path, "TODO_LOCK_TIMEOUT": "1"],
            currentDirectory: folder)
    }

    override func tearDown() {
        temporary = nil
    }

    /// A victim's file with `text`, 0644.
    private func victim(_ name: String, _ text: String) throws -> URL {
        let url = victims.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        XCTAssertEqual(chmod(url.path, 0o644), 0)
        return url
    }

    /// A symbolic link at `name` in the shared folder to `target`, made by nobody.
    private func plantLink(_ name: String, to target: String) {
        let path = folder.appendingPathComponent(name).path
        XCTAssertEqual(symlink(target, path), 0)
        XCTAssertEqual(lchown(path, Self.nobody, Self.nobody), 0)
    }

    /// A plain file at `name` with `text`, made by nobody, readable and writable by everyone.
    private func plantFile(_ name: String, _ text: String) throws {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        XCTAssertEqual(chown(url.path, Self.nobody, Self.nobody), 0)
        XCTAssertEqual(chmod(url.path, 0o666), 0)
    }

    private func status(_ url: URL) throws -> stat {
        var status = stat()
        XCTAssertEqual(lstat(url.path, &status), 0, url.path)
        return status
    }

    private func mode(_ url: URL) throws -> mode_t { try status(url).st_mode & 0o7777 }

    private func refusal(_ path: String, _ why: String) -> Outcome {
        Outcome(status: 4, stdout: "", stderr: "Error: cannot use \(path): \(why); nothing was changed\n")
    }

    private let linkRefusal =
        "it is a symbolic link, and todo does not follow links for the files it keeps beside the list;"
        + " remove it if it is not yours"

    func test_aLockFileLinkedToAnotherFile_isRefused_andTheFileKeepsItsModeAndContents() throws {
        let passwd = try victim("passwd", "root:x:0:0:root:/root:/bin/bash\n")
        plantLink("items.json.lock", to: passwd.path)

        XCTAssertEqual(try todo.run(["add", "x"]), refusal(list.path + ".lock", linkRefusal))

        XCTAssertEqual(try mode(passwd), 0o644, "no fchmod through the link")
        XCTAssertEqual(try String(contentsOf: passwd, encoding: .utf8), "root:x:0:0:root:/root:/bin/bash\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: list.path), "nothing was added")
    }

    func test_aHistoryLinkedToAnotherFile_isRefused_andTheFileLosesNoLineAndGainsNone() throws {
        let notes = try victim("notes", "first line\nno line feed at the end")
        let bashrc = try victim("bashrc", "alias ll='ls -l'\n")
        plantLink("items.json.history", to: notes.path)

        XCTAssertEqual(try todo.run(["add", "x"]), refusal(list.path + ".history", linkRefusal))
        XCTAssertEqual(try todo.run(["history"]), refusal(list.path + ".history", linkRefusal))
        XCTAssertEqual(try String(contentsOf: notes, encoding: .utf8), "first line\nno line feed at the end")
        XCTAssertEqual(try mode(notes), 0o644)

        // The chain of the red-team pass: a title that runs a command once the history is sourced.
        XCTAssertEqual(unlink(folder.appendingPathComponent("items.json.history").path), 0)
        plantLink("items.json.history", to: bashrc.path)
        XCTAssertEqual(try todo.run(["add", "$(id>PWNED)"]).status, 4)
        XCTAssertEqual(try String(contentsOf: bashrc, encoding: .utf8), "alias ll='ls -l'\n")
    }

    func test_aDanglingPlantedLink_createsNothingAtItsTarget() throws {
        let target = victims.appendingPathComponent("created-by-todo")
        plantLink("items.json.lock", to: target.path)
        XCTAssertEqual(try todo.run(["add", "x"]).status, 4)
        plantLink("items.json.history", to: target.path + "2")
        XCTAssertEqual(unlink(folder.appendingPathComponent("items.json.lock").path), 0)
        XCTAssertEqual(try todo.run(["add", "x"]).status, 4)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: victims.path), [])
    }

    func test_aSpareFileFromAnotherUser_isNeverTakenAsTheList() throws {
        try plantFile(".items.json.spare", "{\"version\":1,\"items\":[]}")

        XCTAssertEqual(try todo.run(["add", "x"]).status, 0)
        XCTAssertEqual(try todo.run(["add", "y"]).status, 0)

        for name in storeFiles() {
            let status = try status(folder.appendingPathComponent(name))
            XCTAssertEqual(status.st_uid, 0, "\(name) belongs to the list's user")
            XCTAssertEqual(status.st_mode & 0o7777, 0o600, name)
        }
        XCTAssertEqual(try JSONFileStore(fileURL: list).load().allItems.map(\.title), ["x", "y"])
    }

    func test_aSpareFileFromAnotherUserThatCannotBeRemoved_blocksNoChange_andIsLeftAsItWas() throws {
        // Here the list's user is nobody, and root planted the spare in the sticky folder.
        let spare = folder.appendingPathComponent(".items.json.spare")
        try Data("root's file".utf8).write(to: spare)
        XCTAssertEqual(chmod(spare.path, 0o666), 0)
        var asNobody = todo!
        asNobody.launchPrefix = [
            "/usr/bin/setpriv", "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups"
        ]

        for title in ["x", "y", "z"] {
            XCTAssertEqual(
                try asNobody.run(["add", title]),
                Outcome(status: 0, stdout: "Added \(["x": 1, "y": 2, "z": 3][title]!): \(title)\n", stderr: ""))
        }

        XCTAssertEqual(try String(contentsOf: spare, encoding: .utf8), "root's file")
        XCTAssertEqual(try status(spare).st_uid, 0)
        XCTAssertEqual(try status(list).st_uid, Self.nobody)
        XCTAssertEqual(try mode(list), 0o600)
        XCTAssertEqual(
            try temporary.contents().filter { $0.hasPrefix(".items.json.spare.") }, [], "no temporary file is left")
    }

    func test_aLinkToTheListPlantedByAnotherUser_isNotFollowed_whileOnesOwnLinkIs() throws {
        let real = victims.appendingPathComponent("real.json")
        let store = JSONFileStore(fileURL: real)
        try store.update { manager in _ = try manager.add(ToDoItem(title: "Real")) }
        plantLink("planted.json", to: real.path)
        var planted = todo!
        planted.environment["TODO_FILE"] = folder.appendingPathComponent("planted.json").path

        let why =
            "it is a symbolic link made by another user (uid 65534) in a folder others can write to, and todo"
            + " does not follow it; remove it, or give the file's own path"
        XCTAssertEqual(try planted.run(["add", "x"]), refusal(folder.appendingPathComponent("planted.json").path, why))
        XCTAssertEqual(try planted.run(["list"]).status, 4)

        XCTAssertEqual(symlink(real.path, folder.appendingPathComponent("mine.json").path), 0)
        planted.environment["TODO_FILE"] = folder.appendingPathComponent("mine.json").path
        XCTAssertEqual(try planted.run(["add", "x"]).status, 0)
        XCTAssertEqual(try store.load().allItems.map(\.title), ["Real", "x"])
    }

    func test_aListOfAnotherUser_canBeRead_butNotChanged() throws {
        XCTAssertEqual(try todo.run(["add", "Theirs"]).status, 0)
        for name in try temporary.contents() where name.contains("items.json") {
            XCTAssertEqual(chown(folder.appendingPathComponent(name).path, Self.nobody, Self.nobody), 0)
        }
        let before = try Data(contentsOf: list)

        XCTAssertEqual(try todo.run(["list"]).stdout, "1 [ ] Theirs\n")
        let outcome = try todo.run(["add", "Mine"])
        XCTAssertEqual(outcome.status, 4)
        XCTAssertTrue(outcome.stderr.contains("belongs to another user (uid 65534)"), outcome.stderr)
        XCTAssertEqual(try Data(contentsOf: list), before)
        XCTAssertEqual(try status(list).st_uid, Self.nobody, "the list stays its owner's")
    }

    /// A sync state as a planted one would be: the list sent to the attacker's calendar, with a
    /// password command that leaves a mark.
    private func plantedSyncState(mark: URL) -> String {
        #"{"version":1,"account":{"calendar":"http://127.0.0.1:9/evil/","user":"x","passwordCommand":"touch \#(mark.path)"},"records":[]}"#
    }

    func test_aSyncStateFromAnotherUser_isRefused_andItsCommandNeverRuns() throws {
        XCTAssertEqual(try todo.run(["add", "Mine"]).status, 0)
        let mark = victims.appendingPathComponent("PWNED")
        try plantFile("items.json.sync", plantedSyncState(mark: mark))
        let refused = refusal(
            list.path + ".sync",
            "it belongs to another user (uid 65534), and todo changes only files of its own user (uid 0);"
                + " run todo as uid 65534, or remove the file if it is not theirs to keep")
        for arguments in [["sync"], ["sync", "status"], ["sync", "--dry-run"], ["sync", "forget"]] {
            XCTAssertEqual(try todo.run(arguments), refused, "\(arguments)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: mark.path), "the planted command did not run")
        XCTAssertEqual(try todo.run(["list"]).stdout, "1 [ ] Mine\n")
    }

    func test_aSyncStateOrHistoryOthersMayWrite_isRefused_evenWhenOwnedByTheUser() throws {
        XCTAssertEqual(try todo.run(["add", "Mine"]).status, 0)
        let mark = victims.appendingPathComponent("PWNED")
        let state = folder.appendingPathComponent("items.json.sync")
        try Data(plantedSyncState(mark: mark).utf8).write(to: state)
        XCTAssertEqual(chmod(state.path, 0o662), 0)
        let why =
            "others may write to it (mode 662), so todo does not trust what it says; if its contents are yours, chmod 600 it; otherwise remove it"
        XCTAssertEqual(try todo.run(["sync"]), refusal(state.path, why))
        XCTAssertFalse(FileManager.default.fileExists(atPath: mark.path))

        let history = folder.appendingPathComponent("items.json.history")
        XCTAssertEqual(chmod(history.path, 0o620), 0)
        let whyHistory =
            "others may write to it (mode 620), so todo does not trust what it says; if its contents are yours, chmod 600 it; otherwise remove it"
        for arguments in [["undo"], ["history"], ["add", "More"]] {
            XCTAssertEqual(try todo.run(arguments), refusal(history.path, whyHistory), "\(arguments)")
        }
        XCTAssertEqual(chmod(history.path, 0o600), 0)
        XCTAssertEqual(try todo.run(["add", "More"]).status, 0)
    }

    /// A journal another user planted beside a long list in a shared folder is never used: every
    /// command reads the list without it and says so (before, every command exited 4, reads
    /// included), and the next change writes the list whole.
    func test_aJournalPlantedByAnotherUser_isNeverUsed_theListIsReadWithoutIt() throws {
        var text = "{\"version\": 2, \"nextNumber\": 8001, \"items\": ["
        text += (1...8_000).map {
            #"{"id":"\#(UUID().uuidString)","number":\#($0),"title":"item \#($0) with words to make the list longer","done":false,"createdAt":1795000000}"#
        }
        .joined(separator: ",\n")
        try Data((text + "]}\n").utf8).write(to: list)
        XCTAssertEqual(chmod(list.path, 0o600), 0)
        XCTAssertEqual(try todo.run(["add", "Mine"]).status, 0)
        let journal = folder.appendingPathComponent("items.json.journal")
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal.path))
        try plantFile(
            "items.json.journal", #"{"revision":3,"nextNumber":6003,"steps":[],"check":"0000000000000000"}"# + "\n")
        XCTAssertEqual(chmod(journal.path, 0o644), 0)
        let warning =
            "Warning: \(journal.path) is not this user's own file (another user's, a link, or not a plain file), so its changes"
            + " were not read: \(list.path) is used as its file holds it, and the next change writes it whole\n"
        XCTAssertGreaterThan(try Data(contentsOf: list).count, JSONFileStore.journalFromBytes)
        let shown = try todo.run(["show", "8001"])
        XCTAssertEqual(shown.status, 0)
        XCTAssertEqual(shown.stderr, warning)
        XCTAssertTrue(shown.stdout.hasPrefix("Title:       Mine\n"), shown.stdout)
        XCTAssertEqual(try todo.run(["add", "More"]), Outcome(status: 0, stdout: "Added 8002: More\n", stderr: warning))
        XCTAssertTrue(try String(contentsOf: list, encoding: .utf8).contains("\"title\":\"More\""), "written whole")
    }
}
