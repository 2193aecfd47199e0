import type { FeedProblem } from './feed-error.js';
import { openMensaNamespace, type ElementType, type Particle } from './openmensa-schema.js';
import type { XmlElement } from './xml-tree.js';

const xmlnsNamespace = 'http://www.w3.org/2000/xmlns/';
/** xsi:schemaLocation and its kin may stand on any element of a schema-valid document. */
const xsiNamespace = 'http://www.w3.org/2001/XMLSchema-instance';

/** Checks an element and everything inside it against its schema type, collecting every problem with its line. */
export function checkAgainstSchema(element: XmlElement, type: ElementType, problems: FeedProblem[]): void {
  const report = (message: string, at: XmlElement = element) =>
    problems.push({ line: at.line, element: `<${at.name}>`, message });

  checkAttributes(element, type, report);
  const { content } = type;
  if (content.kind === 'text') {
    for (const child of element.children)
      report(`<${child.name}> is not allowed here: <${element.name}> holds text only`, child);
    const problem = content.value(element.text);
    if (problem !== undefined) report(problem);
    return;
  }
  if (element.text.trim() !== '') report(`text is not allowed directly inside <${element.name}>`);
  if (content.kind === 'empty') {
    for (const child of element.children)
      report(`<${child.name}> is not allowed here: <${element.name}> must be empty`, child);
    return;
  }

  const matched: [XmlElement, Particle][] = [];
  const counts = new Map<Particle, number>();
  let position = 0;
  let chosen: Particle | undefined;
  for (const child of element.children) {
    if (child.uri !== openMensaNamespace) {
      const where = child.uri === '' ? 'without a namespace' : `in namespace "${child.uri}"`;
      report(`<${child.name}> ${where} is not an OpenMensa element (namespace "${openMensaNamespace}")`, child);
      continue;
    }
    const candidates = content.particles.filter((particle) => particle.name === child.local);
    const [particle] = candidates;
    if (particle === undefined) {
      report(
        `<${child.local}> is not allowed inside <${element.local}> (allowed: ${namesOf(content.particles)})`,
        child,
      );
      continue;
    }
    if (content.kind === 'sequence') {
      const index = content.particles.indexOf(particle);
      if (index < position) {
        report(
          `<${child.local}> is out of order: inside <${element.local}> the order is ${namesOf(content.particles)}`,
          child,
        );
        continue;
      }
      position = index;
    }
    if (content.kind === 'choice') {
      chosen ??= particle;
      if (particle !== chosen) {
        report(
          `<${child.local}> cannot stand beside <${chosen.name}> inside <${element.local}>: it holds one or the other`,
          child,
        );
        continue;
      }
    }
    const count = (counts.get(particle) ?? 0) + 1;
    counts.set(particle, count);
    if (count > particle.max) {
      report(
        `<${child.local}> may occur ${particle.max === 1 ? 'only once' : `at most ${particle.max} times`} inside <${element.local}>`,
        child,
      );
      continue;
    }
    matched.push([child, particle]);
  }

  const expected = content.kind === 'choice' ? (chosen === undefined ? [] : [chosen]) : content.particles;
  if (content.kind === 'choice' && chosen === undefined) {
    report(`<${element.local}> needs one of: ${namesOf(content.particles)}`);
  }
  for (const particle of expected) {
    const count = counts.get(particle) ?? 0;
    if (count < particle.min) {
      report(particle.min === 1 ? `missing <${particle.name}>` : `needs at least ${particle.min} <${particle.name}>`);
    }
  }
  for (const [child, particle] of matched) checkAgainstSchema(child, particle.type, problems);
}

function checkAttributes(element: XmlElement, type: ElementType, report: (message: string) => void): void {
  const seen = new Set<string>();
  for (const attribute of element.attributes) {
    if (attribute.uri === xmlnsNamespace || attribute.name === 'xmlns' || attribute.uri === xsiNamespace) continue;
    const rule = attribute.uri === '' ? type.attributes[attribute.local] : undefined;
    if (rule === undefined || !Object.hasOwn(type.attributes, attribute.local)) {
      const allowed = Object.keys(type.attributes);
      report(
        `attribute "${attribute.name}" is not allowed${allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : ''}`,
      );
      continue;
    }
    seen.add(attribute.local);
    const problem = rule.value(attribute.value);
    if (problem !== undefined) report(`attribute "${attribute.local}": ${problem}`);
  }
  for (const [name, rule] of Object.entries(type.attributes)) {
    if (rule.required && !seen.has(name)) report(`attribute "${name}" is required`);
  }
}

function namesOf(particles: readonly Particle[]): string {
  return particles.map((particle) => `<${particle.name}>`).join(', ');
}
