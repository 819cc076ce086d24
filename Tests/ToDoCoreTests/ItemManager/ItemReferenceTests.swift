import Foundation
import TestSupport
import ToDoCore
import XCTest

final class ItemReferenceTests: XCTestCase {
    func test_digitsAreANumber() throws {
        XCTAssertEqual(try ItemReference(parsing: "3"), .number(3))
        XCTAssertEqual(try ItemReference(parsing: " 42 "), .number(42))
        XCTAssertEqual(try ItemReference(parsing: "1234"), .number(1234))
    }

    func test_aFullUUIDInAnyCaseIsAnID() throws {
        let id = UUID(uuidString: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F")!

        XCTAssertEqual(try ItemReference(parsing: "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F"), .id(id))
        XCTAssertEqual(try ItemReference(parsing: "9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e5f"), .id(id))
    }

    func test_fourOrMoreHexCharactersAreAPrefix() throws {
        XCTAssertEqual(try ItemReference(parsing: "9f3c"), .idPrefix("9f3c"))
        XCTAssertEqual(try ItemReference(parsing: "9F3C1D2E-4b"), .idPrefix("9F3C1D2E-4b"))
    }

    func test_anythingElseIsRefused() {
        for text in [
            "", " ", "0", "-1", "abc", "9f3", "xyz1", "9f3c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e5f0", "1.5",
            "99999999999999999999999"
        ] {
            XCTAssertThrowsError(try ItemReference(parsing: text), ItemManagerError.invalidReference(text))
        }
    }

    func test_invalidReferenceMessage_quotesTheInput() {
        XCTAssertEqual(
            ItemManagerError.invalidReference("xyz").description,
            #""xyz" is not an item number, id, or id prefix of at least 4 characters"#)
    }
}
