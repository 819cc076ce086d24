import ToDoCore
import ToDoModel
import XCTest

@testable import ToDoCLI

/// `show` gives every field of the table (`ItemField`), each under its label.
final class ItemRendererTests: XCTestCase {
    func test_showGivesEveryField_underItsLabel() {
        XCTAssertEqual(Set(ItemRenderer.shownOrder), Set(ItemField.allCases))
        XCTAssertEqual(ItemRenderer.shownOrder.count, ItemField.allCases.count)
        let renderer = ItemRenderer(
            style: Style(isEnabled: false), dates: DueDateFormatter(rules: .utc), now: Date(timeIntervalSince1970: 0))
        var item = ToDoItem(title: "A", due: .day(2030, 1, 10))
        item.url = "https://example.com"
        let shown = renderer.details(item)
        for field in ItemField.allCases where field != .progress {
            XCTAssertTrue(
                shown.contains("\n\(field.label):") || shown.hasPrefix("\(field.label):"), "\(field): \(shown)")
        }
        XCTAssertTrue(
            shown.contains("Due:         01/10/30 (Thursday)\n")
                && shown.contains("URL:         https://example.com\n"), shown)
    }
}
