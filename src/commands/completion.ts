import type { Command } from 'commander';
import { CoralError } from '../core/errors.js';
import { type CommandNode, commandTree } from './command-tree.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Names and flags go into shell source: anything but plain words is left out rather than quoted. */
const plain = (w: string) => /^-{0,2}[A-Za-z0-9][\w-]*$/.test(w);

/** A shell function answering, for a command path, the words in `field` (sub-commands or options). */
function table(fn: string, nodes: CommandNode[], field: 'subcommands' | 'options', shell: Shell): string {
  const rows = nodes.filter((n) => n[field].length > 0 && (n.path === '' || n.path.split(' ').every(plain)));
  const words = (n: CommandNode) => n[field].filter(plain).join(' ');
  if (shell === 'fish') {
    return [`function ${fn}`, '  switch "$argv[1]"', ...rows.flatMap((n) => [`    case '${n.path}'`, `      echo '${words(n)}'`]), '  end', 'end'].join('\n');
  }
  return [`${fn}() {`, '  case "$1" in', ...rows.map((n) => `    '${n.path}') echo '${words(n)}' ;;`), '  esac', '}'].join('\n');
}

const BASH_BODY = `_coral() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cmdpath='' word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    [[ $word == -* ]] && continue
    if [[ " $(_coral_subcommands "$cmdpath") " == *" $word "* ]]; then cmdpath=\${cmdpath:+$cmdpath }$word; fi
  done
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_coral_options "$cmdpath")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_coral_subcommands "$cmdpath")" -- "$cur"))
  fi
}
complete -o default -F _coral coral`;

const ZSH_BODY = `_coral() {
  local cmdpath='' word cur=\${words[CURRENT]}
  local -a subs
  for word in \${words[2,CURRENT-1]}; do
    [[ $word == -* ]] && continue
    subs=($(_coral_subcommands "$cmdpath"))
    if (( \${subs[(Ie)$word]} )); then cmdpath=\${cmdpath:+$cmdpath }$word; fi
  done
  if [[ $cur == -* ]]; then
    compadd -- $(_coral_options "$cmdpath")
  else
    subs=($(_coral_subcommands "$cmdpath"))
    if (( $#subs )); then compadd -- $subs; else _files; fi
  fi
}
if [[ "$funcstack[1]" == _coral ]]; then _coral "$@"; else compdef _coral coral; fi`;

const FISH_BODY = `function __coral_path
  set -l cmdpath ''
  for word in (commandline -opc)[2..-1]
    string match -q -- '-*' $word; and continue
    if contains -- $word (string split ' ' -- (__coral_subcommands $cmdpath))
      if test -z "$cmdpath"; set cmdpath $word; else; set cmdpath "$cmdpath $word"; end
    end
  end
  echo $cmdpath
end
complete -c coral -f -n 'not string match -q -- "-*" (commandline -ct); and __coral_subcommands (__coral_path) | string length -q' -a '(string split " " -- (__coral_subcommands (__coral_path)))'
complete -c coral -f -n 'string match -q -- "-*" (commandline -ct)' -a '(string split " " -- (__coral_options (__coral_path)))'`;

const HEADERS: Record<Shell, string> = {
  bash: '# coral completion for bash: add `source <(coral completion bash)` to ~/.bashrc',
  zsh: '#compdef coral\n# coral completion for zsh: add `source <(coral completion zsh)` to ~/.zshrc (after compinit)',
  fish: '# coral completion for fish: coral completion fish > ~/.config/fish/completions/coral.fish',
};

/** The completion script for `shell`, generated from the command tree: commands, sub-commands, options (pure). */
export function completionScript(shell: Shell, nodes: CommandNode[]): string {
  const body = shell === 'bash' ? BASH_BODY : shell === 'zsh' ? ZSH_BODY : FISH_BODY;
  const prefix = shell === 'fish' ? '__coral' : '_coral';
  return [HEADERS[shell], table(`${prefix}_subcommands`, nodes, 'subcommands', shell), table(`${prefix}_options`, nodes, 'options', shell), body, ''].join('\n');
}

/** `coral completion <shell>`. */
export function printCompletion(shell: string, root: Command): void {
  if (!(SHELLS as readonly string[]).includes(shell)) throw new CoralError(`No completion for "${shell}".`, `Shells: ${SHELLS.join(', ')}.`);
  process.stdout.write(completionScript(shell as Shell, commandTree(root)));
}
