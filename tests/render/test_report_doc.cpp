// The report's two renderings, exact.
#include <catch2/catch.hpp>

#include "render/report_doc.hpp"

using namespace tscaudit;
using Catch::Matchers::Contains;

namespace {

ReportDoc sample() {
  ReportDoc d;
  d.title = "tscaudit report of h<1>";
  ReportSection s;
  s.title = "Verdict";
  s.blocks.push_back({ReportBlock::Kind::paragraph, "synchronized & <safe>", {}, "", ""});
  s.blocks.push_back({ReportBlock::Kind::bullets, "", {"one", "two"}, "", ""});
  s.blocks.push_back({ReportBlock::Kind::pre, "a\nb", {}, "", ""});
  s.blocks.push_back({ReportBlock::Kind::picture, "Offset heatmap", {}, "matrix/offset_ticks.svg", ""});
  s.blocks.push_back({ReportBlock::Kind::picture, "Missing", {}, "matrix/none.svg", ""});
  s.blocks.push_back({ReportBlock::Kind::picture,
                      "Not drawn <here>",
                      {},
                      "matrix/rtt.svg",
                      "gnuplot not found; its input is matrix/rtt.dat"});
  d.sections.push_back(s);
  return d;
}

}  // namespace

TEST_CASE("report_markdown: headings, bullets, fences, PNG links beside the SVG, and no link to a picture not drawn") {
  CHECK(report_markdown(sample()) ==
        "# tscaudit report of h<1>\n"
        "\n## Verdict\n"
        "\nsynchronized & <safe>\n"
        "\n- one\n- two\n"
        "\n```\na\nb\n```\n"
        "\n![Offset heatmap](matrix/offset_ticks.png)\n\n*Offset heatmap* ([SVG](matrix/offset_ticks.svg))\n"
        "\n![Missing](matrix/none.png)\n\n*Missing* ([SVG](matrix/none.svg))\n"
        "\n*Not drawn <here>* (not drawn: gnuplot not found; its input is matrix/rtt.dat)\n");
}

TEST_CASE("report_html: escaped text, SVG inline without its prolog, missing pictures named") {
  const std::string html = report_html(sample(), [](const std::string& path) -> std::optional<std::string> {
    CHECK(path != "matrix/rtt.svg");  // a picture not drawn is not looked for
    if (path == "matrix/offset_ticks.svg")
      return std::string("<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<svg width=\"1\"></svg>\n");
    return std::nullopt;
  });
  CHECK_THAT(html, Contains("<title>tscaudit report of h&lt;1&gt;</title>"));
  CHECK_THAT(html, Contains("<p>synchronized &amp; &lt;safe&gt;</p>"));
  CHECK_THAT(html, Contains("<li>one</li>\n<li>two</li>"));
  CHECK_THAT(html, Contains("<pre>a\nb</pre>"));
  CHECK_THAT(html, Contains("<figure>\n<svg width=\"1\"></svg>\n\n<figcaption>Offset heatmap</figcaption>"));
  CHECK(html.find("<?xml") == std::string::npos);
  CHECK(html.find("DOCTYPE svg") == std::string::npos);
  CHECK_THAT(html, Contains("<p>(picture missing: matrix/none.svg)</p>"));
  CHECK_THAT(html, Contains("<figure>\n<p>(not drawn: gnuplot not found; its input is matrix/rtt.dat)</p>\n"
                            "<figcaption>Not drawn &lt;here&gt;</figcaption>\n</figure>\n"));
  CHECK(html.find("matrix/rtt.svg") == std::string::npos);  // not read, not named
  CHECK_THAT(html, Contains("figure svg image{image-rendering:pixelated}"));
  CHECK(html.rfind("</html>\n") == html.size() - 8);
}

TEST_CASE("report tables and links, in both renderings") {
  ReportDoc d;
  d.title = "t";
  ReportSection s;
  s.title = "Worst";
  s.blocks.push_back({ReportBlock::Kind::table, "", {"CPU\tplace", "5\tpackage 0 | <1>", "6\t"}, "", ""});
  s.blocks.push_back({ReportBlock::Kind::link, "every pair & more", {}, "pair_verdicts.txt", ""});
  d.sections.push_back(s);
  CHECK(report_markdown(d) ==
        "# t\n\n## Worst\n"
        "\n| CPU | place |\n|---|---|\n| 5 | package 0 \\| <1> |\n| 6 |  |\n"
        "\n[every pair & more](pair_verdicts.txt)\n");
  const std::string html = report_html(d, [](const std::string&) { return std::nullopt; });
  CHECK_THAT(html, Contains("<table>\n<tr><th>CPU</th><th>place</th></tr>\n"
                            "<tr><td>5</td><td>package 0 | &lt;1&gt;</td></tr>\n<tr><td>6</td><td></td></tr>\n"
                            "</table>\n"));
  CHECK_THAT(html, Contains("<p><a href=\"pair_verdicts.txt\">every pair &amp; more</a></p>\n"));
}

TEST_CASE("report verdict: a box coloured by its outcome in HTML, bold in Markdown, and pre blocks that wrap") {
  ReportDoc d;
  d.title = "t";
  ReportSection s;
  s.title = "Verdict";
  s.blocks.push_back({ReportBlock::Kind::verdict, "not synchronized: CPU 5 <ahead>", {}, "not_synchronized", ""});
  s.blocks.push_back({ReportBlock::Kind::bullets, "", {"two\nlines"}, "", ""});
  d.sections.push_back(s);
  CHECK(report_markdown(d) == "# t\n\n## Verdict\n\n**not synchronized: CPU 5 <ahead>**\n\n- two lines\n");
  const std::string html = report_html(d, [](const std::string&) { return std::nullopt; });
  CHECK_THAT(html, Contains("<div class=\"verdict verdict-not_synchronized\">not synchronized: CPU 5 &lt;ahead&gt;"
                            "</div>\n"));
  for (const char* outcome : {"synchronized", "not_synchronized", "inconclusive", "incomplete"}) {
    CHECK_THAT(html, Contains(std::string(".verdict-") + outcome + "{background:"));
  }
  // Nothing scrolls sideways: pre blocks and table cells wrap, pictures fit the page.
  CHECK_THAT(html, Contains("pre{background:#f4f4f4;padding:.8em;font-size:80%;white-space:pre-wrap;"
                            "overflow-wrap:anywhere}"));
  CHECK_THAT(html, Contains("vertical-align:top;overflow-wrap:anywhere}"));
  CHECK_THAT(html, Contains("figure svg{max-width:100%;height:auto}"));
  CHECK(html.find("overflow-x") == std::string::npos);
}
