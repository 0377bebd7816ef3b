import { ConfigError } from '../files/config-error.ts';
import { visible } from '../files/visible.ts';

// A target's name: what every report, line and matrix names it by, and, below `targets/`, its report folder's name
// (targets.ts). It is bounded, so that the folder name is one the file system takes, and one line of visible
// characters, so that no report or line it stands in can be broken or reordered by it.

/** The longest a target's name may be, in characters: a host name's longest, the name of a target given none. */
export const NAME_MAX_CHARACTERS = 253;

/** Where the first character is that a line cannot show as it is (a control, a line break, a bidi or invisible one), from 1. */
function hiddenAt(name: string): { at: number; written: string } | undefined {
  for (const [i, char] of [...name].entries()) {
    const written = visible(char);
    if (written !== char) return { at: i + 1, written };
  }
  return undefined;
}

/**
 * A target's name, checked: at most NAME_MAX_CHARACTERS, one line of visible characters. `given` says whether the
 * settings gave it or it is the base URL's host; `where` names the file that describes the target, if one does.
 */
export function checkTargetName(name: string, given: boolean, where: string | undefined): void {
  const said = given
    ? `${where === undefined ? '' : `${where}: `}CONFORMANCE_TARGET_NAME (name)`
    : `the target's name, the host of CONFORMANCE_BASE_URL (baseUrl) when no name is given,`;
  const length = [...name].length;
  if (length > NAME_MAX_CHARACTERS)
    throw new ConfigError(
      `${said} is ${length} characters long; a target's name is at most ${NAME_MAX_CHARACTERS} characters, which its report folder's name is made of${given ? '' : ': give it a name'}`,
    );
  const hidden = hiddenAt(name);
  if (hidden !== undefined)
    throw new ConfigError(
      `${said} holds a control, line break, bidi or invisible character at position ${hidden.at} (${hidden.written}); a target's name is one line of visible characters`,
    );
}
