// The glossary panel and the reference popovers: loaded by the glossary section's own script
// tag, so the page's other views need not know about either.
import { byId } from './dom.js';
import { renderGlossary } from './glossary.js';
import { watchReferences } from './popover.js';

renderGlossary(byId('glossary', HTMLDivElement));
watchReferences(document.body);
