#include "bench/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "common/device_summary.hpp"

namespace cohort_cli {

namespace {

constexpr double width = 860, height = 520;
constexpr double left = 80, right = 200, top = 50, bottom = 60;  // margins; the legend sits on the right
constexpr double plot_w = width - left - right, plot_h = height - top - bottom;
// Distinct on white and for the common colour-vision deficiencies (Okabe-Ito).
constexpr const char* palette[] = {"#000000", "#E69F00", "#56B4E9", "#009E73",
                                   "#D55E00", "#0072B2", "#CC79A7", "#F0E442"};

std::string escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A round step (1, 2 or 5 times a power of ten) giving about five ticks up to max.
double tick_step(double max) {
  const double raw = max / 5;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0})
    if (m * power >= raw) return m * power;
  return 10 * power;
}

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

void write_svg_plot(const report& r, const std::string& path) {
  // Series in the order variants first appear; points in size order.
  std::vector<std::string> names;
  std::map<std::string, std::vector<std::pair<double, double>>> series;
  std::vector<double> sizes;
  double y_max = 0;
  for (const result_row& row : r.rows) {
    if (!series.count(row.variant)) names.push_back(row.variant);
    const double y = row.metric(r.plot_key);
    series[row.variant].emplace_back(static_cast<double>(row.size), y);
    sizes.push_back(static_cast<double>(row.size));
    y_max = std::max(y_max, y);
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  if (sizes.empty()) throw std::runtime_error("nothing to plot");
  const double step = tick_step(y_max > 0 ? y_max : 1);
  const double y_top = std::ceil((y_max > 0 ? y_max : 1) / step) * step;
  const double lx0 = std::log2(sizes.front()), lx1 = std::log2(sizes.back());
  const auto x_of = [&](double size) {
    return left + (lx1 > lx0 ? (std::log2(size) - lx0) / (lx1 - lx0) * plot_w : plot_w / 2);
  };
  const auto y_of = [&](double v) { return top + plot_h - v / y_top * plot_h; };

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << left << "\" y=\"28\" font-size=\"15\">cohort bench " << escape(r.command) << ": "
      << escape(cohort_kernels::device_summary(r.device)) << "</text>\n";
  for (double v = 0; v <= y_top + step / 2; v += step) {
    svg << "<line x1=\"" << left << "\" x2=\"" << left + plot_w << "\" y1=\"" << y_of(v) << "\" y2=\"" << y_of(v)
        << "\" stroke=\"#dddddd\"/>\n"
        << "<text x=\"" << left - 8 << "\" y=\"" << y_of(v) + 4 << "\" text-anchor=\"end\">" << number(v)
        << "</text>\n";
  }
  for (const double s : sizes)
    svg << "<text x=\"" << x_of(s) << "\" y=\"" << top + plot_h + 18 << "\" text-anchor=\"middle\">"
        << size_text(static_cast<std::uint64_t>(s)) << "</text>\n";
  svg << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << plot_w << "\" height=\"" << plot_h
      << "\" fill=\"none\" stroke=\"black\"/>\n"
      << "<text x=\"" << left + plot_w / 2 << "\" y=\"" << height - 18 << "\" text-anchor=\"middle\">"
      << (r.size_unit == "elements" ? "size (" + r.element + " elements)" : std::string("threads per block"))
      << "</text>\n"
      << "<text transform=\"translate(22 " << top + plot_h / 2 << ") rotate(-90)\" text-anchor=\"middle\">"
      << escape(r.plot_label) << "</text>\n";
  for (std::size_t i = 0; i < names.size(); ++i) {
    const char* colour = palette[i % std::size(palette)];
    // cohort-cuda's tables have more lines than the palette has colours: the second round is dashed.
    const std::string stroke = std::string("stroke=\"") + colour + "\" stroke-width=\"2\"" +
                               (i >= std::size(palette) ? " stroke-dasharray=\"6 3\"" : "");
    std::string points;
    for (const auto& [x, y] : series[names[i]]) {
      points += number(x_of(x)) + "," + number(y_of(y)) + " ";
      svg << "<circle cx=\"" << x_of(x) << "\" cy=\"" << y_of(y) << "\" r=\"3\" fill=\"" << colour << "\"/>\n";
    }
    svg << "<polyline points=\"" << points << "\" fill=\"none\" " << stroke << "/>\n";
    const double ly = top + 10 + 20.0 * static_cast<double>(i);
    svg << "<line x1=\"" << left + plot_w + 16 << "\" x2=\"" << left + plot_w + 40 << "\" y1=\"" << ly << "\" y2=\""
        << ly << "\" " << stroke << "/>\n"
        << "<text x=\"" << left + plot_w + 46 << "\" y=\"" << ly + 4 << "\">" << escape(names[i]) << "</text>\n";
  }
  svg << "</svg>\n";

  std::ofstream out(path);
  out << svg.str();
  if (!out) throw std::runtime_error("cannot write the chart to " + path);
}

}  // namespace cohort_cli
