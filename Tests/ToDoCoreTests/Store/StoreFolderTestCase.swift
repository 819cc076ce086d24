import Foundation
import TestSupport
import XCTest

/// A test of the store with a fresh folder of its own, the list's file in it as `items.json`.
class StoreFolderTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var fileURL: URL!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        fileURL = directory.file("items.json")
    }

    override func tearDown() {
        directory = nil
        super.tearDown()
    }
}
