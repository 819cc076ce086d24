import Foundation
import TestSupport
import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoStorage

/// Titles that `==` calls equal (canonical equivalence) get one key, or the same-content rule
/// would miss them.
final class TitleKeyTests: XCTestCase {
    func test_theScalarsThatNormalizeToASCII_areExactlyTheTable() {
        for value in TestRun.sample(0x80, through: 0x10FFFF) {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            let decomposed = String(Character(scalar)).decomposedStringWithCanonicalMapping
            let ascii = decomposed.unicodeScalars.allSatisfy(\.isASCII) ? decomposed.utf8.first : nil
            XCTAssertEqual(TitleKey.asciiEquivalent(of: scalar), ascii, "U+\(String(value, radix: 16))")
            if ascii != nil { XCTAssertEqual(decomposed.utf8.count, 1, "U+\(String(value, radix: 16))") }
        }
    }

    func test_equalTitles_haveEqualKeys() {
        let pairs = [
            ("Call Mom", "Call Mom"),
            ("\u{212A}elvin", "Kelvin"),
            ("a\u{037E}b", "a;b"),
            ("\u{1FEF}quoted`", "`quoted`"),
            ("Caf\u{E9}", "Cafe\u{301}"),
            ("\u{212A}\u{301}", "\u{1E30}"),
            ("", ""),
            (String(repeating: "long title ", count: 9), String(repeating: "long title ", count: 9))
        ]
        for (left, right) in pairs {
            XCTAssertEqual(left, right)
            XCTAssertEqual(TitleKey.key(of: left), TitleKey.key(of: right), "\(left) / \(right)")
        }
        XCTAssertNotEqual(TitleKey.key(of: "Call Mom"), TitleKey.key(of: "Call Dad"))
        XCTAssertNotEqual(TitleKey.key(of: "abcdefgh1"), TitleKey.key(of: "abcdefgh2"))
    }

    func test_itemsInTheirWrittenForm_haveTheKeyOfTheirTitle() throws {
        var random = SeededGenerator(seed: 0x717E)
        for index in 0..<2_000 {
            var item = RandomItems.item(&random)
            if index % 3 == 0 { item.title = "Plain ASCII title \(index)" }
            let read = try XCTUnwrap(item.readByTheShortcut)
            XCTAssertEqual(
                read.asciiTitleKey ?? TitleKey.otherKey(of: read.title), TitleKey.key(of: item.title), "case \(index)")
        }
    }

    func test_aLongListsKeys_gatheredInTwoHalves_findEveryOpenTitle() throws {
        var manager = ItemManager()
        let count = Parallelism.gatherTitleKeysInTwoHalvesMinimumCount + 100
        for index in 0..<count {
            try manager.add(ToDoItem(title: index % 7 == 0 ? "Caf\u{E9} \(index)" : "Item \(index)"))
        }
        for index in [0, 1, 2, count / 2 - 1, count / 2, count / 2 + 1, count - 1] {
            let title = index % 7 == 0 ? "Cafe\u{301} \(index)" : "Item \(index)"
            XCTAssertThrowsError(try manager.add(ToDoItem(title: title)), "item \(index)")
        }
        try manager.add(ToDoItem(title: "Item \(count)"))
        XCTAssertThrowsError(try manager.add(ToDoItem(title: "Item \(count)")))
    }

    func test_addingATitleEqualToAnOpenOne_underAnotherSpelling_isRefused() throws {
        var manager = ItemManager()
        try manager.add(ToDoItem(title: "\u{212A}elvin"))
        XCTAssertThrowsError(try manager.add(ToDoItem(title: "Kelvin")))
        try manager.add(ToDoItem(title: "Cafe\u{301}"))
        XCTAssertThrowsError(try manager.add(ToDoItem(title: "Caf\u{E9}")))
        XCTAssertNoThrow(try manager.add(ToDoItem(title: "Kelvin!")))
    }
}

extension TitleKey {
    /// The key of any title: its ASCII key if it has one, else its other key.
    static func key(of title: String) -> Int {
        var bytes = title
        return bytes.withUTF8(asciiKey(ofUTF8:)) ?? otherKey(of: title)
    }
}
