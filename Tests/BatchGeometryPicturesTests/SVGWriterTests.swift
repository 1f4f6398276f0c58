import XCTest

@testable import BatchGeometryPictures

final class SVGWriterTests: XCTestCase {
    func testNumbersHaveAtMostThreeDecimalsTrimmed() {
        let cases: [(Double, String)] = [
            (0, "0"), (-0.0, "0"), (-0.0001, "0"), (12.5, "12.5"), (7, "7"), (-1.0 / 3, "-0.333"), (2.0 / 3, "0.667"),
            (0.05, "0.05"), (1.0005, "1.001"), (1e15, "1000000000000"), (.nan, "0"), (-.infinity, "-1000000000000"),
            (99.9999, "100"),
        ]
        for (value, text) in cases { XCTAssertEqual(SVGWriter.number(value), text, "\(value)") }
    }

    func testEscaping() {
        XCTAssertEqual(SVGWriter.escaped(#"a<b>&"c"'d"#), "a&lt;b&gt;&amp;&quot;c&quot;&apos;d")
        XCTAssertEqual(SVGWriter.escaped("é 日本\n\u{1}"), "é 日本&#10;\u{FFFD}")
    }

    func testDocumentsAreWellFormed() throws {
        var writer = SVGWriter(width: 100, height: 50)
        writer.open("g", [("id", "x & y")])
        writer.element("text", [("x", "1")], content: "<tag> & \"quotes\" -- é")
        writer.comment("a -- b -")
        let svg = writer.finish()
        XCTAssertNoThrow(try XMLChecker.check(svg))
        XCTAssertTrue(svg.hasSuffix(" </g>\n</svg>\n"))
    }

    /// The checker itself rejects what is not well-formed.
    func testCheckerRejectsMalformedXML() {
        let bad = [
            "<a><b></a></b>", "<a x=1/>", "<a x=\"1\" x=\"2\"/>", "<a>&foo;</a>", "<a>&#0;</a>", "<a x=\"<\"/>", "<a>",
            "<a/><b/>", "text<a/>", "<a><!-- x -- y --></a>", "<a>\u{1}</a>", "<1a/>",
        ]
        for document in bad { XCTAssertThrowsError(try XMLChecker.check(document), document) }
        XCTAssertEqual(
            try XMLChecker.check("<?xml version=\"1.0\"?>\n<a x='1'><b>&amp;&#233;&#x41;</b><!-- c --></a>\n"), 2)
    }
}
