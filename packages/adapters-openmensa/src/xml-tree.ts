import { SaxesParser, type SaxesTagNS } from 'saxes';
import { OpenMensaFeedError } from './feed-error.js';

export interface XmlAttribute {
  /** As written, with its prefix: `xsi:schemaLocation`. */
  readonly name: string;
  /** Its namespace URI; '' for an unprefixed attribute. */
  readonly uri: string;
  readonly local: string;
  readonly value: string;
}

/** An element of a parsed document: namespace-resolved, with the line it starts on. */
export interface XmlElement {
  readonly name: string;
  readonly uri: string;
  readonly local: string;
  readonly line: number;
  readonly attributes: readonly XmlAttribute[];
  readonly children: readonly XmlElement[];
  /** The element's own character data (text and CDATA sections), entities resolved. */
  readonly text: string;
}

interface OpenElement extends XmlElement {
  readonly children: XmlElement[];
  text: string;
}

/**
 * The deepest element nesting a feed may have. An OpenMensa feed needs 6 levels (openmensa, canteen, day, category,
 * meal, price); the bound leaves room and stops a deep document before saxes's namespace lookup, which walks every
 * open element for every tag: quadratic in depth (40 000 levels took a minute of the thread).
 */
export const maxElementDepth = 32;

/**
 * Parses a whole document with saxes, a conforming XML 1.0 parser with namespaces: anything not well-formed (an
 * unclosed tag, an undefined entity, a second root, a character XML forbids) is refused with its line. A DOCTYPE is
 * refused as well: a feed needs none, and refusing it rules out entity tricks. So is an element deeper than
 * `maxElementDepth`, as soon as its tag starts (before saxes resolves its namespace).
 */
export function parseXmlTree(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const open: OpenElement[] = [];
  let root: OpenElement | undefined;
  let tagLine = 1;

  parser.on('doctype', () => {
    throw new OpenMensaFeedError([{ line: parser.line, message: 'a DOCTYPE is not allowed in an OpenMensa feed' }]);
  });
  parser.on('opentagstart', () => {
    tagLine = parser.line;
    if (open.length >= maxElementDepth) {
      throw new OpenMensaFeedError([
        {
          line: tagLine,
          message: `elements are nested more than ${maxElementDepth} deep (an OpenMensa feed needs 6): refused as hostile`,
        },
      ]);
    }
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    const element: OpenElement = {
      name: tag.name,
      uri: tag.uri,
      local: tag.local,
      line: tagLine,
      attributes: Object.values(tag.attributes).map(({ name, uri, local, value }) => ({ name, uri, local, value })),
      children: [],
      text: '',
    };
    const parent = open.at(-1);
    if (parent === undefined) root = element;
    else parent.children.push(element);
    open.push(element);
  });
  parser.on('closetag', () => {
    open.pop();
  });
  const addText = (data: string) => {
    const current = open.at(-1);
    if (current !== undefined) current.text += data;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);

  try {
    parser.write(text.startsWith('\uFEFF') ? text.slice(1) : text).close();
  } catch (error) {
    if (error instanceof OpenMensaFeedError) throw error;
    throw new OpenMensaFeedError([malformed(error)]);
  }
  if (root === undefined) throw new OpenMensaFeedError([{ line: 1, message: 'the file holds no XML element' }]);
  return root;
}

/** saxes reports "line:column: message." */
function malformed(error: unknown): { line: number; message: string } {
  const text = error instanceof Error ? error.message : String(error);
  const match = /^(\d+):(\d+): (.*?)\.?$/s.exec(text);
  if (match === null) return { line: 1, message: `malformed XML: ${text}` };
  return { line: Number(match[1]), message: `malformed XML at column ${Number(match[2]) + 1}: ${match[3]}` };
}
