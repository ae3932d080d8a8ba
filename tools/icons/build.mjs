// Rasterizes the icons listed in icons.txt from the Game Icons set
// (@iconify-json/game-icons, CC BY 3.0, https://game-icons.net) into white-on-
// transparent 64x64 PNGs under assets/icons/, which the game tints.
//
//   cd tools/icons && npm ci && node build.mjs
//
// The output is deterministic for the pinned package versions (package-lock.json).
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Resvg } from "@resvg/resvg-js";
import { icons } from "@iconify-json/game-icons";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "..", "assets", "icons");
const SIZE = 64;
mkdirSync(out, { recursive: true });

const names = readFileSync(join(here, "icons.txt"), "utf8")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith("#"));

let failed = false;
for (const name of names) {
  const icon = icons.icons[name];
  if (!icon) {
    console.error(`icons.txt: no icon named \`${name}\` in @iconify-json/game-icons`);
    failed = true;
    continue;
  }
  const w = icon.width ?? icons.width ?? 512;
  const h = icon.height ?? icons.height ?? 512;
  // The set draws black glyphs: make them white so the game can tint them.
  const body = icon.body.replaceAll('fill="currentColor"', 'fill="#fff"');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${SIZE}" height="${SIZE}" fill="#fff">${body}</svg>`;
  const png = new Resvg(svg, { fitTo: { mode: "width", value: SIZE } }).render().asPng();
  writeFileSync(join(out, `${name}.png`), png);
  console.log(`assets/icons/${name}.png`);
}
process.exit(failed ? 1 : 0);
