#include "render/report_doc.hpp"

#include <vector>

namespace tscaudit {
namespace {

/// The PNG drawn beside an SVG picture ("matrix/offset_ticks.svg" -> ".png").
std::string png_of(const std::string& svg_path) {
  if (svg_path.size() > 4 && svg_path.ends_with(".svg")) return svg_path.substr(0, svg_path.size() - 4) + ".png";
  return svg_path;
}

/// The SVG element and what follows, without the XML prolog, comments or doctype before it.
std::string svg_element(const std::string& svg) {
  const std::size_t start = svg.find("<svg");
  return start == std::string::npos ? svg : svg.substr(start);
}

/// The cells of one table row (ReportBlock::items: split by tabs).
std::vector<std::string> cells_of(const std::string& row) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = row.find('\t', start);
    cells.push_back(row.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return cells;
    start = tab + 1;
  }
}

std::string markdown_row(const std::string& row) {
  std::string out = "|";
  for (const std::string& cell : cells_of(row)) {
    std::string escaped;
    for (char c : cell) {
      if (c == '|') escaped += '\\';
      escaped += c;
    }
    out += " " + escaped + " |";
  }
  return out + "\n";
}

/// A bullet item on one line: a line break inside it would end the item in Markdown.
std::string bullet_line(const std::string& item) {
  std::string out;
  for (char c : item) out += (c == '\n' || c == '\r') ? ' ' : c;
  return out;
}

std::string markdown_table(const std::vector<std::string>& rows) {
  if (rows.empty()) return "";
  std::string out = markdown_row(rows[0]) + "|";
  for (std::size_t i = 0; i < cells_of(rows[0]).size(); ++i) out += "---|";
  out += "\n";
  for (std::size_t r = 1; r < rows.size(); ++r) out += markdown_row(rows[r]);
  return out;
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string report_markdown(const ReportDoc& doc) {
  std::string out = "# " + doc.title + "\n";
  for (const ReportSection& s : doc.sections) {
    out += "\n## " + s.title + "\n";
    for (const ReportBlock& b : s.blocks) {
      out += "\n";
      switch (b.kind) {
        case ReportBlock::Kind::paragraph: out += b.text + "\n"; break;
        case ReportBlock::Kind::bullets:
          for (const std::string& item : b.items) out += "- " + bullet_line(item) + "\n";
          break;
        case ReportBlock::Kind::verdict: out += "**" + b.text + "**\n"; break;
        case ReportBlock::Kind::pre: out += "```\n" + b.text + (b.text.ends_with("\n") ? "" : "\n") + "```\n"; break;
        case ReportBlock::Kind::table: out += markdown_table(b.items); break;
        case ReportBlock::Kind::link: out += "[" + b.text + "](" + b.path + ")\n"; break;
        case ReportBlock::Kind::picture:
          if (!b.missing.empty()) {
            out += "*" + b.text + "* (not drawn: " + b.missing + ")\n";
          } else {
            out += "![" + b.text + "](" + png_of(b.path) + ")\n\n*" + b.text + "* ([SVG](" + b.path + "))\n";
          }
          break;
      }
    }
  }
  return out;
}

std::string report_html(const ReportDoc& doc,
                        const std::function<std::optional<std::string>(const std::string&)>& read_svg) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + html_escape(doc.title) +
      "</title>\n<style>\n"
      "body{font-family:sans-serif;max-width:72em;margin:2em auto;padding:0 1em;line-height:1.4;color:#222}\n"
      "pre{background:#f4f4f4;padding:.8em;font-size:80%;white-space:pre-wrap;overflow-wrap:anywhere}\n"
      "figure{margin:1em 0}figure svg{max-width:100%;height:auto}figcaption{font-style:italic}\n"
      "figure svg image{image-rendering:pixelated}\n"
      "h2{border-bottom:1px solid #ccc;padding-bottom:.2em}\n"
      "li{margin:.3em 0}\n"
      "table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.2em .6em;text-align:left;"
      "vertical-align:top;overflow-wrap:anywhere}th{background:#f4f4f4}\n"
      ".verdict{font-size:120%;font-weight:bold;padding:.7em 1em;border-left:.5em solid;border-radius:.2em}\n"
      ".verdict-synchronized{background:#e3f4e6;border-color:#2e8540;color:#15401f}\n"
      ".verdict-not_synchronized{background:#fbe4e2;border-color:#c0392b;color:#5c1710}\n"
      ".verdict-inconclusive{background:#fdf3d8;border-color:#c99700;color:#4d3a00}\n"
      ".verdict-incomplete{background:#eceff3;border-color:#6b7785;color:#2b3138}\n"
      "</style>\n</head>\n<body>\n<h1>" +
      html_escape(doc.title) + "</h1>\n";
  for (const ReportSection& s : doc.sections) {
    out += "<h2>" + html_escape(s.title) + "</h2>\n";
    for (const ReportBlock& b : s.blocks) {
      switch (b.kind) {
        case ReportBlock::Kind::paragraph: out += "<p>" + html_escape(b.text) + "</p>\n"; break;
        case ReportBlock::Kind::bullets:
          out += "<ul>\n";
          for (const std::string& item : b.items) out += "<li>" + html_escape(item) + "</li>\n";
          out += "</ul>\n";
          break;
        case ReportBlock::Kind::pre: out += "<pre>" + html_escape(b.text) + "</pre>\n"; break;
        case ReportBlock::Kind::verdict:
          out += "<div class=\"verdict verdict-" + html_escape(b.path) + "\">" + html_escape(b.text) + "</div>\n";
          break;
        case ReportBlock::Kind::table:
          out += "<table>\n";
          for (std::size_t r = 0; r < b.items.size(); ++r) {
            const char* cell = r == 0 ? "th" : "td";
            out += "<tr>";
            for (const std::string& c : cells_of(b.items[r])) {
              out += std::string("<") + cell + ">" + html_escape(c) + "</" + cell + ">";
            }
            out += "</tr>\n";
          }
          out += "</table>\n";
          break;
        case ReportBlock::Kind::link:
          out += "<p><a href=\"" + html_escape(b.path) + "\">" + html_escape(b.text) + "</a></p>\n";
          break;
        case ReportBlock::Kind::picture: {
          out += "<figure>\n";
          if (!b.missing.empty()) {
            out += "<p>(not drawn: " + html_escape(b.missing) + ")</p>\n";
          } else if (const auto svg = read_svg(b.path)) {
            out += svg_element(*svg) + "\n";
          } else {
            out += "<p>(picture missing: " + html_escape(b.path) + ")</p>\n";
          }
          out += "<figcaption>" + html_escape(b.text) + "</figcaption>\n</figure>\n";
          break;
        }
      }
    }
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace tscaudit
