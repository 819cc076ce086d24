import Foundation
@testable import ToDoCore
import TestSupport
import XCTest

final class UUIDParsingTests: XCTestCase {
    func test_readsWhatFoundationReads_inBothLetterCases() {
        for _ in 0..<2_000 {
            let id = UUID()
            XCTAssertEqual(UUID(canonical: id.uuidString), id)
            XCTAssertEqual(UUID(canonical: id.uuidString.lowercased()), id)
        }
    }

    func test_refusesWhatIsNotTheCanonicalForm() {
        let valid = "9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F"
        for text in ["", "9F3C1D2E", valid + "0", String(valid.dropLast()), valid.replacingOccurrences(of: "-", with: ""),
                     valid.replacingOccurrences(of: "F", with: "G"), "9F3C1D2E-4B5A-4C6D-8E7F0-A1B2C3D4E5F",
                     "9F3C1D2E 4B5A-4C6D-8E7F-0A1B2C3D4E5F", "{9F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F}",
                     "９F3C1D2E-4B5A-4C6D-8E7F-0A1B2C3D4E5F"] {
            XCTAssertNil(UUID(canonical: text), text)
            XCTAssertNil(UUID(uuidString: text), "Foundation agrees: \(text)")
        }
    }
}
