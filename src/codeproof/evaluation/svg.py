"""Tiny inline SVG charts (no JavaScript, no network): grouped bars and step lines."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

WIDTH, HEIGHT = 560, 300
LEFT, RIGHT, TOP, BOTTOM = 60, 20, 36, 58
PALETTE = ("#4c78a8", "#f58518", "#54a24b", "#e45756")


def _frame(title: str, body: list[str], legend: Sequence[str]) -> str:
    items = [
        f'<rect x="{LEFT + i * 130}" y="{HEIGHT - 16}" width="10" height="10" '
        f'fill="{PALETTE[i % len(PALETTE)]}"/><text x="{LEFT + i * 130 + 14}" y="{HEIGHT - 7}" '
        f'font-size="11">{escape(name)}</text>'
        for i, name in enumerate(legend)
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}" '
        'font-family="sans-serif">'
        f'<text x="{WIDTH / 2}" y="18" text-anchor="middle" font-size="14">{escape(title)}</text>'
        + "".join(body)
        + "".join(items)
        + "</svg>"
    )


def _y_axis(top: float, label: str) -> list[str]:
    plot_h = HEIGHT - TOP - BOTTOM
    out = [
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="#333"/>',
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" '
        f'y2="{HEIGHT - BOTTOM}" stroke="#333"/>',
        f'<text x="14" y="{TOP + plot_h / 2}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 14 {TOP + plot_h / 2})">{escape(label)}</text>',
    ]
    for i in range(5):
        value = top * i / 4
        y = HEIGHT - BOTTOM - plot_h * i / 4
        out.append(
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" font-size="10" text-anchor="end">'
            f"{_fmt(value)}</text>"
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#ddd"/>'
        )
    return out


def _fmt(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 10 or value == int(value) else f"{value:.2g}"


def bar_chart(
    title: str,
    categories: Sequence[str],
    series: dict[str, Sequence[float | None]],
    *,
    y_label: str,
    y_max: float | None = None,
) -> str:
    """Grouped bars: one group per category, one bar per series, values on top
    (``None``: no bar, "n/a")."""
    values = [v for vs in series.values() for v in vs if v is not None]
    top = y_max if y_max is not None else max([*values, 1e-9]) * 1.15
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    group_w = plot_w / max(len(categories), 1)
    bar_w = group_w * 0.8 / max(len(series), 1)
    body = _y_axis(top, y_label)
    for c, category in enumerate(categories):
        x0 = LEFT + c * group_w + group_w * 0.1
        body.append(
            f'<text x="{x0 + group_w * 0.4:.1f}" y="{HEIGHT - BOTTOM + 14}" font-size="11" '
            f'text-anchor="middle">{escape(category)}</text>'
        )
        for s, vals in enumerate(series.values()):
            value = vals[c]
            x = x0 + s * bar_w
            if value is None:
                body.append(
                    f'<text x="{x + bar_w / 2:.1f}" y="{HEIGHT - BOTTOM - 3}" font-size="10" '
                    'text-anchor="middle">n/a</text>'
                )
                continue
            h = plot_h * min(value, top) / top if top else 0
            y = HEIGHT - BOTTOM - h
            body.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar_w * 0.95:.1f}" height="{h:.1f}" '
                f'fill="{PALETTE[s % len(PALETTE)]}"><title>{escape(category)}: '
                f"{value:.4g}</title></rect>"
                f'<text x="{x + bar_w / 2:.1f}" y="{y - 3:.1f}" font-size="10" '
                f'text-anchor="middle">{_fmt(value)}</text>'
            )
    return _frame(title, body, list(series))


def cdf_chart(title: str, samples: dict[str, Sequence[float]], *, x_label: str) -> str:
    """Empirical CDF of each series as a step line."""
    x_max = max([v for vs in samples.values() for v in vs] + [1e-9]) * 1.05
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    body = _y_axis(1.0, "fraction of tasks")
    for i in range(5):
        x = LEFT + plot_w * i / 4
        body.append(
            f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 14}" font-size="10" '
            f'text-anchor="middle">{_fmt(x_max * i / 4)}</text>'
        )
    body.append(
        f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - BOTTOM + 28}" font-size="11" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    for s, values in enumerate(samples.values()):
        ordered = sorted(values)
        points: list[tuple[float, float]] = [(LEFT, HEIGHT - BOTTOM)]
        for k, v in enumerate(ordered, 1):
            x = LEFT + plot_w * v / x_max
            points += [(x, points[-1][1]), (x, HEIGHT - BOTTOM - plot_h * k / len(ordered))]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        body.append(
            f'<polyline points="{path}" fill="none" stroke="{PALETTE[s % len(PALETTE)]}" '
            'stroke-width="2"/>'
        )
    return _frame(title, body, list(samples))
