// The report as a document: sections of paragraphs, preformatted blocks and pictures,
// rendered to Markdown (report.md) and to one self-contained HTML page (report.html, the
// SVG pictures inline). Pure: the caller supplies the pictures' text.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tscaudit {

struct ReportBlock {
  enum class Kind { paragraph, bullets, pre, picture, table, link, verdict };
  Kind kind = Kind::paragraph;
  std::string text;                // paragraph, pre, verdict; picture: the caption; link: what it says
  std::vector<std::string> items;  // bullets; table: the rows, cells split by tabs, the first the header
  std::string path;                // picture: relative to the report directory (an SVG; a PNG beside it);
                                   // link: the file linked, relative to the report directory;
                                   // verdict: the outcome (check_outcome_name), which colours its box
  std::string missing;             // picture: why it is not there, "" when it is
};

struct ReportSection {
  std::string title;
  std::vector<ReportBlock> blocks;
};

struct ReportDoc {
  std::string title;
  std::vector<ReportSection> sections;
};

/// Markdown: "# title", "## section", paragraphs, the verdict in bold ("**...**"), "- " bullets
/// (an item's line breaks joined into one line, so that an item is never cut in two), fenced
/// pre blocks, tables
/// ("| a | b |" with a "|---|" line under the header; a "|" in a cell escaped), links
/// ("[text](path)"), and pictures as links to the PNG next to each SVG (viewers show PNG
/// everywhere); a missing picture as its caption and "(not drawn: MISSING)", no link.
std::string report_markdown(const ReportDoc& doc);

/// A whole HTML page with its own style; every text escaped; the verdict as a box coloured
/// by its outcome (<div class="verdict verdict-OUTCOME">, OUTCOME synchronized,
/// not_synchronized, inconclusive or incomplete); pre blocks that wrap their lines rather
/// than scroll sideways (white-space: pre-wrap), as do long words in tables; tables as
/// <table> with a header row; links as <a href>; each picture's SVG inline at its own size
/// or narrower, never wider than the page
/// (its XML prolog and doctype dropped; an image inside drawn with crisp pixels), or a
/// note: "(not drawn: MISSING)", or one naming the file that could not be read.
/// \param read_svg  the SVG text of a picture path, nullopt when it cannot be read.
std::string report_html(const ReportDoc& doc,
                        const std::function<std::optional<std::string>(const std::string&)>& read_svg);

/// &, <, >, " escaped for HTML text and attributes.
std::string html_escape(const std::string& text);

}  // namespace tscaudit
