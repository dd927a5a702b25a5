import type { Step } from '../harness/step';
import { authSteps } from './auth.script';
import { coreSteps } from './core.script';
import { httpSteps, uiSteps } from './http.script';
import { introspectSteps } from './introspect.script';
import { metadataSteps } from './metadata.script';
import { v3Steps } from './v3.script';
import { wireSteps } from './wire.script';

/** Every call of the script, in the order it runs them (later calls use ids earlier ones kept). */
export const SCRIPT: Step[] = [...coreSteps, ...wireSteps, ...metadataSteps, ...authSteps, ...httpSteps, ...uiSteps, ...introspectSteps, ...v3Steps];
