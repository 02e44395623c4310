// Every symbol of the public API (`moonglass`, `moonglass/ndfc`, `moonglass/testing`) says what
// it is for: exported functions, classes, interfaces, type aliases and constants, and the
// members of exported interfaces and classes, have a TSDoc comment. Exempt: the keys of zod
// schemas and of the types inferred from them (the config reference documents those from the
// schemas' own descriptions), members marked `@internal`, and symbol-keyed members.
import { relative } from 'node:path';
import ts from 'typescript';
import { publicProgram } from '../reference/public-program.js';
import { repoRoot } from '../repo-root.js';
import type { Problem } from './problem.js';

export function checkTsdoc(program: ts.Program = publicProgram()): Problem[] {
  const checker = program.getTypeChecker();
  const problems: Problem[] = [];
  const reported = new Set<ts.Node>();
  const report = (node: ts.Node, what: string): void => {
    if (reported.has(node)) return;
    reported.add(node);
    const source = node.getSourceFile();
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    problems.push({ file: relative(repoRoot, source.fileName), line: line + 1, message: `${what} has no TSDoc comment (it is public API: say what it is for)` });
  };
  for (const entry of ['src/index.ts', 'src/ndfc.ts', 'src/testing.ts']) {
    const source = program.getSourceFile(`${repoRoot}/${entry}`)!;
    const moduleSymbol = checker.getSymbolAtLocation(source)!;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declarations = (symbol.declarations ?? []).filter((declaration) => !declaration.getSourceFile().fileName.includes('/node_modules/'));
      if (declarations.length === 0) continue;
      if (!declarations.some(hasDoc)) report(declarations[0]!, `${exported.name} (exported from ${entry})`);
      for (const declaration of declarations) checkMembers(declaration, exported.name, report);
    }
  }
  return problems;
}

function hasDoc(node: ts.Node): boolean {
  const target = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  return ts.getJSDocCommentsAndTags(target).some((doc) => ts.isJSDoc(doc) && (doc.comment !== undefined || (doc.tags?.length ?? 0) > 0));
}

function isInternal(node: ts.Node): boolean {
  return ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'internal');
}

/** A type alias or constant built from zod (`z.output<typeof X>`, `z.object({...})`): its keys are documented by the schema. */
function isZodDerived(node: ts.Node): boolean {
  const text = node.getText();
  return /\bz\.(output|infer|input)</.test(text) || (ts.isVariableDeclaration(node) && /=\s*(z\.|[A-Z]\w*Config\.extend\(|PluginConfig\.extend\()/.test(text));
}

function checkMembers(declaration: ts.Node, owner: string, report: (node: ts.Node, what: string) => void): void {
  if (isZodDerived(declaration) || isInternal(declaration)) return;
  let members: readonly ts.Node[] = [];
  if (ts.isInterfaceDeclaration(declaration) || ts.isClassDeclaration(declaration)) members = declaration.members;
  else if (ts.isTypeAliasDeclaration(declaration) && ts.isTypeLiteralNode(declaration.type)) members = declaration.type.members;
  const documented = new Set(members.filter(hasDoc).map((member) => (member as ts.NamedDeclaration).name?.getText()));
  for (const member of members) {
    if (ts.isConstructorDeclaration(member) || ts.isIndexSignatureDeclaration(member) || ts.isClassStaticBlockDeclaration(member)) continue;
    const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
    // Private and protected members are not API; an override is documented where it is declared first.
    const hidden = [ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword, ts.SyntaxKind.OverrideKeyword];
    if (modifiers.some((modifier) => hidden.includes(modifier.kind))) continue;
    const name = (member as ts.NamedDeclaration).name;
    if (name === undefined || ts.isPrivateIdentifier(name) || ts.isComputedPropertyName(name)) continue;
    // An overloaded method is documented once, on any of its signatures.
    if (isInternal(member) || documented.has(name.getText())) continue;
    documented.add(name.getText()); // report an undocumented overload set once
    report(member, `${owner}.${name.getText()}`);
  }
}
