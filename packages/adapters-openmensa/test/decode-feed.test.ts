import { decodeFeed, OpenMensaFeedError, readOpenMensaFeed } from '@canteen-meals/adapters-openmensa';
import { describe, expect, it } from 'vitest';

// windows-1252 from 0x80 to 0x9F, as the WHATWG Encoding Standard's index-windows-1252 has it (0xA0-0xFF are
// U+00A0-U+00FF). null: the five bytes that table fills with C1 controls; the service refuses them (no text uses them).
const windows1252High: readonly (number | null)[] = [
  0x20ac,
  null,
  0x201a,
  0x0192,
  0x201e,
  0x2026,
  0x2020,
  0x2021,
  0x02c6,
  0x2030,
  0x0160,
  0x2039,
  0x0152,
  null,
  0x017d,
  null,
  null,
  0x2018,
  0x2019,
  0x201c,
  0x201d,
  0x2022,
  0x2013,
  0x2014,
  0x02dc,
  0x2122,
  0x0161,
  0x203a,
  0x0153,
  null,
  0x017e,
  0x0178,
];
const expected = (byte: number) => (byte >= 0xa0 ? byte : windows1252High[byte - 0x80]!);

const document = (label: string, ...bytes: number[]) =>
  Buffer.concat([
    Buffer.from(`<?xml version="1.0" encoding="${label}"?>\n<x>`),
    Buffer.from(bytes),
    Buffer.from('</x>\n'),
  ]);

describe('decodeFeed: single-byte encodings', () => {
  // A feed that declares ISO-8859-1 is read as windows-1252, the WHATWG rule every browser follows: such feeds are
  // written by Windows software, and ISO-8859-1's 0x80-0x9F are controls no menu contains.
  for (const label of ['windows-1252', 'ISO-8859-1', 'latin1', 'cp1252']) {
    it(`decodes every byte from 0x80 to 0xFF declared as ${label} as windows-1252`, () => {
      for (let byte = 0x80; byte <= 0xff; byte += 1) {
        const codePoint = expected(byte);
        if (codePoint === null) continue;
        expect(decodeFeed(document(label, byte)), `byte 0x${byte.toString(16)}`).toBe(
          `<?xml version="1.0" encoding="${label}"?>\n<x>${String.fromCodePoint(codePoint)}</x>\n`,
        );
      }
    });

    it(`refuses the five bytes windows-1252 leaves undefined, declared as ${label}, naming the line`, () => {
      for (const byte of [0x81, 0x8d, 0x8f, 0x90, 0x9d]) {
        expect(() => decodeFeed(document(label, byte))).toThrow(OpenMensaFeedError);
        try {
          decodeFeed(document(label, 0x41, byte));
        } catch (error) {
          expect((error as OpenMensaFeedError).problems).toEqual([
            { line: 2, message: 'the file is not valid windows-1252' },
          ]);
        }
      }
    });
  }

  it('reads a whole windows-1252 feed with €, „“ and … in its meal names', () => {
    const xml = `<?xml version="1.0" encoding="windows-1252"?>
<openmensa version="2.1" xmlns="http://openmensa.org/open-mensa-v2">
<canteen><day date="2026-03-23"><category name="Aktion">
<meal><name>„Spezial“ Menü … nur 4 €</name><price role="student">4.00</price></meal>
</category></day></canteen>
</openmensa>
`;
    const bytes = Buffer.from(
      [...xml].map((char) => ({ '€': 0x80, '„': 0x84, '“': 0x93, '…': 0x85, ü: 0xfc })[char] ?? char.charCodeAt(0)),
    );
    const { days } = readOpenMensaFeed(bytes);
    expect(days[0]).toMatchObject({ items: [{ name: '„Spezial“ Menü … nur 4 €' }] });
  });

  it('still decodes other single-byte encodings by their own tables (ISO-8859-15: 0xA4 is €)', () => {
    expect(decodeFeed(document('iso-8859-15', 0xa4))).toContain('<x>€</x>');
    expect(decodeFeed(document('windows-1250', 0x8a))).toContain('<x>Š</x>');
  });
});
