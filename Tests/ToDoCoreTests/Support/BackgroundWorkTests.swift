@testable import ToDoCore
import XCTest

final class BackgroundWorkTests: XCTestCase {
    func test_inTwoHalves_coversTheRangeInOrder() {
        XCTAssertEqual(BackgroundWork.inTwoHalves(10, minimumCount: 2) { $0 }, [0..<5, 5..<10])
        XCTAssertEqual(BackgroundWork.inTwoHalves(10, minimumCount: 11) { $0 }, [0..<10])
        XCTAssertEqual(BackgroundWork.inTwoHalves(1, minimumCount: 0) { $0 }, [0..<1])
        XCTAssertEqual(BackgroundWork.inTwoHalves(0, minimumCount: 0) { $0 }, [0..<0])
    }

    /// The caller never takes a result before the other thread has let go of the work: once, that
    /// race stopped `todo add -` (a closure that `withoutActuallyEscaping` found still held).
    func test_manyShortHalves_finishCleanly() {
        var total = 0
        for index in 0..<20_000 {
            let halves = BackgroundWork.inTwoHalves(2, minimumCount: 2) { range in range.lowerBound + index }
            total += halves[0] + halves[1] - 2 * index
        }
        XCTAssertEqual(total, 20_000)
    }
}
