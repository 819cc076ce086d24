import ToDoStorage
import XCTest

/// What `OutputBytes` has handed on so far.
private final class HandedOn {
    var bytes: [UInt8] = []
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// `OutputBytes` gathers a list's bytes in memory of its own and hands them on as it fills: what
/// reaches the output is exactly what was appended, in order, across any number of fills, and
/// nothing before `flush()` is lost.
final class OutputBytesTests: XCTestCase {
    func test_everyKindOfAppend_reachesTheOutputInOrder_acrossFills() {
        let output = HandedOn()
        var expected = ""
        var bytes = OutputBytes { output.bytes += $0 }
        for row in 0..<4_000 {
            bytes.append(digitsOf: row)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(spaces: row % 7)
            bytes.append("café \(row)")
            bytes.append(Array("[\(row % 3)]".utf8))
            bytes.append(Array(" tag".utf8)[1...])
            bytes.append(spaces: -1)
            bytes.append(UInt8(ascii: "\n"))
            expected += "\(row):" + String(repeating: " ", count: row % 7) + "café \(row)[\(row % 3)]tag\n"
        }
        // Longer than the buffer, whole and as spaces: handed on as they come.
        let long = String(repeating: "0123456789", count: 10_000)
        bytes.append(long)
        bytes.append(spaces: 70_000)
        bytes.append(UInt8(ascii: "."))
        expected += long + String(repeating: " ", count: 70_000) + "."
        XCTAssertGreaterThan(expected.utf8.count, 3 << 16)
        XCTAssertLessThan(output.text.utf8.count, expected.utf8.count, "the last bytes wait for flush()")
        bytes.flush()
        XCTAssertEqual(output.text, expected)
        bytes.flush()
        XCTAssertEqual(output.text, expected, "a second flush writes nothing")
    }

    func test_digitCount_isTheNumberOfDigitsWritten() {
        for number in [0, 9, 10, 99, 100, 12_345, Int.max] {
            let output = HandedOn()
            var bytes = OutputBytes { output.bytes += $0 }
            bytes.append(digitsOf: number)
            bytes.flush()
            XCTAssertEqual(output.text, String(number))
            XCTAssertEqual(OutputBytes.digitCount(of: number), String(number).count)
        }
    }
}
