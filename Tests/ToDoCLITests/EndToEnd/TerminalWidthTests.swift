import Foundation
import TestSupport
import XCTest

/// `todo list` on a terminal of a set size (a pseudo-terminal, as a tmux pane is): rows fit its
/// width, wide characters count two columns, and a pipe still gets whole rows.
final class TerminalWidthTests: BinaryTestCase {
    override var timeZone: String { "America/New_York" }
    override var extraEnvironment: [String: String] { ["NO_COLOR": "1"] }

    private func addItems() throws {
        let adds: [[String]] = [
            ["Call Mom", "--due", "01/10/27", "--location", "Home"],
            ["日本語のタスク", "--due", "12/20/26"],
            ["Emoji 🎉🎂 party", "--due", "12/01/26", "--location", "Büro"],
            [
                "A very long title that goes on and on about the things to do before the end of the year",
                "--due", "12/24/26", "--location", "Aldi Süd, Friedrichshain"
            ],
            ["Short"],
            ["Another very long title without a date or a place, cut at the edge of the terminal"],
            ["東京で買い物をする、それから大阪に行って友達に会う", "--location", "大阪駅"],
            ["Cafe\u{301} au lait", "--due", "12/02/26"]
        ]
        for arguments in adds {
            let outcome = try todo.run(["add"] + arguments)
            XCTAssertEqual(outcome.status, 0, "\(outcome)")
        }
    }

    func test_onA60ColumnTerminal_everyRowFits_theTitleGivingWayWithAnEllipsis() throws {
        try addItems()
        let (status, shown) = try todo.runOnTerminal(["list"], columns: 60)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(
            shown,
            """
            1 [ ] Call Mom              01/10/27  @Home
            2 [ ] 日本語のタスク        12/20/26
            3 [ ] Emoji 🎉🎂 party      12/01/26  @Büro
            4 [ ] A very long title t…  12/24/26  @Aldi Süd, Friedrichs…
            5 [ ] Short
            6 [ ] Another very long title without a date or a place, cu…
            7 [ ] 東京で買い物をする…             @大阪駅
            8 [ ] Café au lait          12/02/26

            """)
    }

    /// Tags, a project and a list are cut with the title (issue 52: a row whose tags did not fit
    /// lost them without an `…`, and its date moved left); a wide character that would cross the
    /// edge leaves a space, and the dates and places stay in their columns (row 7 above too).
    func test_onA60ColumnTerminal_tagsAreCutWithAnEllipsis_andTheDatesStayInLine() throws {
        for arguments in [
            ["Short", "+averyveryverylongtagname", "+another", "--due", "12/03/26"],
            ["Buy milk", "+errand", "--due", "12/01/26"],
            ["Fix the fence", "project:home.garden.fence", "--list", "Weekend", "--due", "12/05/26"],
            ["宽字符的标题非常长的待办事项需要被截断才能显示", "+tag", "--due", "12/04/26"],
            ["A title that fits with its tags but not the date", "+x", "+y", "--due", "12/06/26"]
        ] {
            XCTAssertEqual(try todo.run(["add"] + arguments).status, 0, "\(arguments)")
        }
        let (status, shown) = try todo.runOnTerminal(["list"], columns: 60)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(
            shown,
            """
            1 [ ] Short +averyveryverylongtagname +another      12/03/26
            2 [ ] Buy milk +errand                              12/01/26
            3 [ ] Fix the fence project:home.garden.fence --l…  12/05/26
            4 [ ] 宽字符的标题非常长的待办事项需要被截断才能…   12/04/26
            5 [ ] A title that fits with its tags but not the…  12/06/26

            """)
    }

    func test_onAWideTerminal_nothingIsCut_andWideCharactersLineUp() throws {
        try addItems()
        let (status, shown) = try todo.runOnTerminal(["list"], columns: 200)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(
            shown,
            """
            1 [ ] Call Mom                                                                                 01/10/27  @Home
            2 [ ] 日本語のタスク                                                                           12/20/26
            3 [ ] Emoji 🎉🎂 party                                                                         12/01/26  @Büro
            4 [ ] A very long title that goes on and on about the things to do before the end of the year  12/24/26  @Aldi Süd, Friedrichshain
            5 [ ] Short
            6 [ ] Another very long title without a date or a place, cut at the edge of the terminal
            7 [ ] 東京で買い物をする、それから大阪に行って友達に会う                                                 @大阪駅
            8 [ ] Café au lait                                                                             12/02/26

            """)
    }

    func test_aTerminalThatDoesNotSayItsWidth_usesCOLUMNS() throws {
        try addItems()
        todo.environment["COLUMNS"] = "40"
        let (_, shown) = try todo.runOnTerminal(["list", "--search", "long"], columns: 0)
        XCTAssertEqual(
            shown,
            """
            4 [ ] A very long…  12/24/26  @Aldi Süd…
            6 [ ] Another very long title without a…

            """)
        // A terminal that says its width wins over COLUMNS, which a shell sets only when it starts.
        XCTAssertEqual(
            try todo.runOnTerminal(["list", "--search", "long"], columns: 50).shown,
            """
            4 [ ] A very long titl…  12/24/26  @Aldi Süd, Fri…
            6 [ ] Another very long title without a date or a…

            """)
    }

    func test_aPipe_getsWholeRows_whateverCOLUMNSSays() throws {
        try addItems()
        todo.environment["COLUMNS"] = "40"
        let outcome = try todo.run(["list", "--search", "long"])
        XCTAssertEqual(
            outcome,
            Outcome(
                status: 0,
                stdout: """
                    4 [ ] A very long title that goes on and on about the things to do before the end of the year  12/24/26  @Aldi Süd, Friedrichshain
                    6 [ ] Another very long title without a date or a place, cut at the edge of the terminal

                    """, stderr: ""))
    }

    func test_colours_stayAroundTheCutTitle() throws {
        todo.environment["NO_COLOR"] = nil
        XCTAssertEqual(
            try todo.run(["add", "A title long enough to be cut on a narrow terminal", "--due", "01/10/27"]).status, 0)
        XCTAssertEqual(try todo.run(["check", "1"]).status, 0)
        let (_, shown) = try todo.runOnTerminal(["list"], columns: 36)
        XCTAssertEqual(
            shown,
            "\u{1B}[1mDone\u{1B}[0m\n\u{1B}[1m1\u{1B}[0m \u{1B}[32m[x]\u{1B}[0m \u{1B}[2mA title long enough…\u{1B}[0m  01/10/27\n"
        )
    }

    /// Long work says how far it has come on a terminal, and nothing of it in a pipe (issue 32).
    func test_aLargeImport_showsProgressOnATerminal_andNothingInAPipe() throws {
        let lines = (1...1200).map { "Task \($0) +work\n" }.joined()
        try Data(lines.utf8).write(to: directory.file("big.txt"))
        let (status, shown) = try todo.runOnTerminal(["import", directory.file("big.txt").path], columns: 80)
        XCTAssertEqual(status, 0)
        XCTAssertTrue(shown.contains("Adding 1200 of 1200…"), String(shown.suffix(300)))
        XCTAssertTrue(
            shown.hasSuffix("Imported 1200 items from \(directory.file("big.txt").path) (todotxt).\n"),
            String(shown.suffix(300)))
        try FileManager.default.removeItem(at: fileURL)
        let piped = try todo.run(["import", directory.file("big.txt").path])
        XCTAssertEqual(piped.status, 0)
        XCTAssertEqual(piped.stderr, "", "a pipe gets no progress")
    }
}
