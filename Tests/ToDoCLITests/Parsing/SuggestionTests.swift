import XCTest

@testable import ToDoCLI

final class SuggestionTests: XCTestCase {
    func test_editDistance_countsInsertionsDeletionsSubstitutionsAndSwaps() {
        XCTAssertEqual(Suggestion.editDistance("list", "list"), 0)
        XCTAssertEqual(Suggestion.editDistance("lst", "list"), 1)
        XCTAssertEqual(Suggestion.editDistance("lsit", "list"), 1)
        XCTAssertEqual(Suggestion.editDistance("dew", "due"), 2)
        XCTAssertEqual(Suggestion.editDistance("", "add"), 3)
    }

    func test_nearest_prefersTheClosestCandidateWithinTheLimit() {
        XCTAssertEqual(Suggestion.nearest(to: "chek", among: ["check", "uncheck"]), "check")
        XCTAssertEqual(Suggestion.nearest(to: "remvoe", among: ["remove", "edit"]), "remove")
        XCTAssertNil(Suggestion.nearest(to: "frobnicate", among: ["add", "list"]))
        XCTAssertNil(Suggestion.nearest(to: "ax", among: ["list"]))
    }
}
