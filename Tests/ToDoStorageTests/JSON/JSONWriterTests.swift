import ToDoModel
import XCTest

@testable import ToDoStorage

final class JSONWriterTests: XCTestCase {
    func test_serialized_indentsTwoSpacesOneMemberPerLineWithAFinalNewline() throws {
        let value = try JSONValue(parsing: Array(#"{"b":[1,{"c":null}],"a":{},"d":[],"e":true}"#.utf8))

        XCTAssertEqual(
            String(decoding: value.serialized(), as: UTF8.self),
            """
            {
              "b": [
                1,
                {
                  "c": null
                }
              ],
              "a": {},
              "d": [],
              "e": true
            }

            """)
    }

    func test_serializedCompactly_writesOneLine() throws {
        let value = try JSONValue(parsing: Array(#"{ "a" : [ 1 , 2 ] }"#.utf8))

        XCTAssertEqual(String(decoding: value.serializedCompactly(), as: UTF8.self), #"{"a":[1,2]}"#)
    }

    func test_escapesQuotesBackslashesAndControlCharactersButNotUnicode() {
        let value = JSONValue.string("say \"hi\"\\\n\t\r\u{1}\u{7F} é 😀 /")

        XCTAssertEqual(
            String(decoding: value.serializedCompactly(), as: UTF8.self),
            #""say \"hi\"\\\n\t\r\u0001\u007f é 😀 /""#)
    }

    func test_numbers_writeWholeValuesWithoutAFractionAndOthersShortest() {
        let cases: [(Double, String)] = [
            (1_641_772_800, "1641772800"), (0, "0"), (-0.0, "0"), (-3, "-3"),
            (52.520008, "52.520008"), (0.1, "0.1"), (1.5e20, "1.5e+20"), (1e-7, "1e-07")
        ]
        for (double, text) in cases {
            XCTAssertEqual(JSONValue.number(double), .number(text))
        }
    }

    func test_roundTripsEveryValueThroughTheParser() throws {
        let text =
            #"{"s":"a\"b\\c\u0000 é 😀","n":[0,-1.25,3e+10,123456789012345678901234567890],"o":{"x":[[],{}]},"t":true,"f":false,"z":null}"#
        let value = try JSONValue(parsing: Array(text.utf8))

        XCTAssertEqual(try JSONValue(parsing: value.serialized()), value)
        XCTAssertEqual(try JSONValue(parsing: value.serializedCompactly()), value)
    }

    func test_codable_passesValuesThroughJSONEncoderAndDecoder() throws {
        let value = try JSONValue(parsing: Array(#"{"a":[1,2.5,"x",true,null,{"b":-7}]}"#.utf8))

        let decoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))

        XCTAssertEqual(decoded, value)
    }
}
