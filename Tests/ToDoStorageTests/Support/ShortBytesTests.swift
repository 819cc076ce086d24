import ToDoStorage
import XCTest

/// `ShortBytes` gives back exactly the bytes it was given, up to its 16, and no more.
final class ShortBytesTests: XCTestCase {
    func test_theBytesGiven_comeBackExactly_upToSixteen() {
        let bytes = Array("Mon 12/31/29 23:59 and more".utf8)
        for count in 0...20 {
            var out: [UInt8] = [7]
            let short = ShortBytes(bytes[..<count])
            short.append(to: &out)
            XCTAssertEqual(short.count, min(count, 16))
            XCTAssertEqual(out, [7] + bytes.prefix(min(count, 16)), "\(count) bytes")
        }
        var none: [UInt8] = []
        ShortBytes().append(to: &none)
        XCTAssertEqual(none, [])
        var high: [UInt8] = []
        ShortBytes([0xFF, 0x00, 0xC3, 0xA9][...]).append(to: &high)
        XCTAssertEqual(high, [0xFF, 0x00, 0xC3, 0xA9])
    }
}
