// A small QR code maker for the envelope code of a sealed move, so that the code never leaves the browser.
// Written for this one use: alphanumeric mode (0-9, A-Z, space and $%*+-./:), error correction level M,
// versions 1-3 (one Reed-Solomon block each, up to 61 characters), a fixed mask (0). ISO/IEC 18004 §7.

const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:";
// Level M, versions 1-3: [data codewords, error correction codewords] of the single block.
const BLOCKS = { 1: [16, 10], 2: [28, 16], 3: [44, 26] };
const ALIGNMENT = { 1: [], 2: [6, 18], 3: [6, 22] };
const LEVEL_M = 0b00;
const MASK = 0;

// --- GF(256) with the QR code's polynomial x^8 + x^4 + x^3 + x^2 + 1 ------------------------------------------

const EXP = new Array(512);
const LOG = new Array(256);
(() => {
  let value = 1;
  for (let power = 0; power < 255; power += 1) {
    EXP[power] = value;
    LOG[value] = power;
    value <<= 1;
    if (value & 0x100) value ^= 0x11d;
  }
  for (let power = 255; power < 512; power += 1) EXP[power] = EXP[power - 255];
})();

const times = (a, b) => (a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]]);

/** The generator polynomial (x - α^0)(x - α^1)…(x - α^(n-1)), highest power first, leading 1 left out. */
function generator(degree) {
  let poly = [1];
  for (let root = 0; root < degree; root += 1) {
    const next = new Array(poly.length + 1).fill(0);
    poly.forEach((coefficient, index) => {
      next[index] ^= coefficient;
      next[index + 1] ^= times(coefficient, EXP[root]);
    });
    poly = next;
  }
  return poly.slice(1);
}

function errorCorrection(data, degree) {
  const divisor = generator(degree);
  const remainder = new Array(degree).fill(0);
  for (const byte of data) {
    const factor = byte ^ remainder.shift();
    remainder.push(0);
    divisor.forEach((coefficient, index) => {
      remainder[index] ^= times(coefficient, factor);
    });
  }
  return remainder;
}

// --- the bit stream ------------------------------------------------------------------------------------------

function codewords(text, version) {
  const [dataLength, ecLength] = BLOCKS[version];
  const bits = [];
  const put = (value, length) => {
    for (let bit = length - 1; bit >= 0; bit -= 1) bits.push((value >>> bit) & 1);
  };
  put(0b0010, 4); // alphanumeric mode
  put(text.length, 9);
  for (let index = 0; index < text.length; index += 2) {
    const first = ALPHANUMERIC.indexOf(text[index]);
    if (index + 1 < text.length) put(first * 45 + ALPHANUMERIC.indexOf(text[index + 1]), 11);
    else put(first, 6);
  }
  const capacity = dataLength * 8;
  put(0, Math.min(4, capacity - bits.length)); // terminator
  while (bits.length % 8) bits.push(0);
  const data = [];
  for (let index = 0; index < bits.length; index += 8) {
    data.push(bits.slice(index, index + 8).reduce((byte, bit) => (byte << 1) | bit, 0));
  }
  for (let pad = 0; data.length < dataLength; pad += 1) data.push(pad % 2 ? 0x11 : 0xec);
  return [...data, ...errorCorrection(data, ecLength)];
}

// --- the matrix ----------------------------------------------------------------------------------------------

function formatBits(mask) {
  const data = (LEVEL_M << 3) | mask;
  let remainder = data;
  for (let step = 0; step < 10; step += 1) remainder = (remainder << 1) ^ ((remainder >>> 9) * 0x537);
  return ((data << 10) | remainder) ^ 0x5412;
}

/** The modules of the QR code of `text` (rows of booleans, true = dark), or null when it cannot be encoded here. */
export function qrMatrix(text) {
  if (![...text].every((char) => ALPHANUMERIC.includes(char))) return null;
  const version = [1, 2, 3].find((v) => 13 + Math.ceil((text.length * 11) / 2) <= BLOCKS[v][0] * 8);
  if (!version) return null;
  const size = 17 + 4 * version;
  const dark = Array.from({ length: size }, () => new Array(size).fill(false));
  const reserved = Array.from({ length: size }, () => new Array(size).fill(false));
  const set = (row, col, on) => {
    if (row < 0 || col < 0 || row >= size || col >= size) return;
    dark[row][col] = on;
    reserved[row][col] = true;
  };

  for (let index = 0; index < size; index += 1) {
    set(6, index, index % 2 === 0);
    set(index, 6, index % 2 === 0);
  }
  for (const [top, left] of [[0, 0], [0, size - 7], [size - 7, 0]]) {
    for (let dr = -1; dr <= 7; dr += 1) {
      for (let dc = -1; dc <= 7; dc += 1) {
        const ring = Math.max(Math.abs(dr - 3), Math.abs(dc - 3));
        set(top + dr, left + dc, ring !== 2 && ring !== 4);
      }
    }
  }
  const centres = ALIGNMENT[version];
  for (const row of centres) {
    for (const col of centres) {
      if (reserved[row][col]) continue; // under a finder pattern
      for (let dr = -2; dr <= 2; dr += 1) {
        for (let dc = -2; dc <= 2; dc += 1) set(row + dr, col + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
      }
    }
  }
  const format = formatBits(MASK);
  const bit = (index) => ((format >>> index) & 1) === 1;
  for (let index = 0; index <= 5; index += 1) set(index, 8, bit(index));
  set(7, 8, bit(6));
  set(8, 8, bit(7));
  set(8, 7, bit(8));
  for (let index = 9; index < 15; index += 1) set(8, 14 - index, bit(index));
  for (let index = 0; index < 8; index += 1) set(8, size - 1 - index, bit(index));
  for (let index = 8; index < 15; index += 1) set(size - 15 + index, 8, bit(index));
  set(size - 8, 8, true); // the dark module

  const stream = codewords(text, version).flatMap((byte) => Array.from({ length: 8 }, (_, i) => (byte >>> (7 - i)) & 1));
  let next = 0;
  let upward = true;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5; // the vertical timing pattern
    for (let step = 0; step < size; step += 1) {
      const row = upward ? size - 1 - step : step;
      for (const col of [right, right - 1]) {
        if (reserved[row][col]) continue;
        const on = next < stream.length ? stream[next] === 1 : false;
        next += 1;
        dark[row][col] = on !== ((row + col) % 2 === 0); // mask 0
      }
    }
    upward = !upward;
  }
  return dark;
}

/** An SVG element drawing `text` as a QR code (with the 4-module quiet zone), or null. */
export function qrSvg(text, moduleSize = 5) {
  const matrix = qrMatrix(text);
  if (!matrix) return null;
  const quiet = 4;
  const side = matrix.length + quiet * 2;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.setAttribute("width", String(side * moduleSize));
  svg.setAttribute("height", String(side * moduleSize));
  svg.setAttribute("shape-rendering", "crispEdges");
  const background = document.createElementNS(ns, "rect");
  background.setAttribute("width", String(side));
  background.setAttribute("height", String(side));
  background.setAttribute("fill", "#fff");
  const path = document.createElementNS(ns, "path");
  let d = "";
  matrix.forEach((row, r) => row.forEach((on, c) => {
    if (on) d += `M${c + quiet} ${r + quiet}h1v1h-1z`;
  }));
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(background, path);
  return svg;
}
