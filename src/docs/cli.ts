/** docs/cli.md: every command and option, from the option table the parser and `--help` read
 * (src/cli/args.ts). */
import { COMMANDS, type CommandSpec, type OptionSpec } from '../cli/args.js';
import { generatedNote, table, type GeneratedPage } from './page.js';

function accepts(spec: OptionSpec): string {
  if (spec.type === 'boolean') return '';
  const parts = [spec.type === 'integer' ? 'integer' : 'text'];
  if (spec.min !== undefined || spec.max !== undefined) parts.push(`${spec.min ?? '…'} to ${spec.max ?? '…'}`);
  if (spec.choices) parts.push(`one of ${spec.choices.map((c) => `\`${c}\``).join(', ')}`);
  if (spec.multiple) parts.push('repeatable, comma-separated');
  if (spec.output) parts.push('a file it writes (checked writable before it starts)');
  return parts.join('; ');
}

function section(command: CommandSpec): string[] {
  const rows = Object.entries(command.options).map(([name, spec]) => [`\`--${name}${spec.value ? ` ${spec.value}` : ''}\``, accepts(spec), spec.help]);
  return [
    `## \`${command.name}\``,
    '',
    '```',
    `lp-conformance ${command.name} ${command.usage}`,
    '```',
    '',
    `${command.summary.charAt(0).toUpperCase()}${command.summary.slice(1).replace(/\n/g, ' ')}.`,
    '',
    ...table(['option', 'accepts', 'meaning'], [...rows, ['`--help`', '', 'this command’s options']]),
    ...(command.notes ? ['', command.notes.replace(/\n/g, ' ')] : []),
    '',
  ];
}

export const CLI_PAGE: GeneratedPage = {
  path: 'docs/cli.md',
  render: () =>
    [
      '# Command-line reference',
      '',
      generatedNote('the option table in `src/cli/args.ts`'),
      '',
      'Every command answers `--help` with the same options; `lp-conformance --help` shows them all. ' +
        'An unknown option names the closest one, a bad value names the option and what it accepts, ' +
        'and both exit 2 with one line.',
      '',
      ...COMMANDS.map((c) => `- [\`${c.name}\`](#${c.name}): ${c.summary.replace(/\n/g, ' ')}`),
      '',
      ...COMMANDS.flatMap(section),
    ].join('\n'),
};
