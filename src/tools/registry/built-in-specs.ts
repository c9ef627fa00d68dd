import { calculatorSpec } from '../math/calculator-spec.ts';
import { currentTimeSpec } from '../time/current-time-spec.ts';
import { editFileSpec } from '../files/edit-file-spec.ts';
import { listFilesSpec } from '../files/list-files-spec.ts';
import { readFileSpec } from '../files/read-file-spec.ts';
import { searchFilesSpec } from '../files/search-files-spec.ts';
import { writeFileSpec } from '../files/write-file-spec.ts';
import { runCommandSpec } from '../shell/run-command-spec.ts';
import { todoWriteSpec } from '../todo/todo-write-spec.ts';
import { taskSpec } from '../task/task-spec.ts';
import { skillSpec } from '../skill/skill-spec.ts';
import { weatherSpec } from '../weather/weather-spec.ts';
import { webFetchSpec } from '../web/web-fetch-spec.ts';
import { webSearchSpec } from '../web/web-search-spec.ts';
import type { ToolSpec } from '../tool-spec.ts';

/** Every built-in tool's spec, in the order the registry offers them. Light: no SDK. */
export const BUILT_IN_SPECS: readonly ToolSpec[] = [
  weatherSpec,
  calculatorSpec,
  currentTimeSpec,
  readFileSpec,
  listFilesSpec,
  writeFileSpec,
  editFileSpec,
  searchFilesSpec,
  runCommandSpec,
  todoWriteSpec,
  skillSpec,
  webSearchSpec,
  webFetchSpec,
  taskSpec,
];

const byName = new Map(BUILT_IN_SPECS.map((spec) => [spec.name, spec]));

/** The spec of a built-in tool, or undefined for any other name. */
export const builtInSpec = (toolName: string): ToolSpec | undefined => byName.get(toolName);
