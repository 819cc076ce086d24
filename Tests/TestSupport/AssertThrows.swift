import XCTest

/// Asserts that `expression` throws exactly `expected` (XCTest's own `XCTAssertThrowsError` takes a
/// second argument as its message, and would not look at the error).
public func XCTAssertThrows<Failure: Error & Equatable, Value>(
    _ expression: @autoclosure () throws -> Value, _ expected: Failure, file: StaticString = #filePath,
    line: UInt = #line
) {
    do {
        _ = try expression()
        XCTFail("did not throw \(expected)", file: file, line: line)
    } catch {
        XCTAssertEqual(error as? Failure, expected, file: file, line: line)
    }
}
