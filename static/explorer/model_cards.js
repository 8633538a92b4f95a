// The cards a real model's head brings (layout.js loads them with the first model on show,
// lazy.js): the model's card, its lenses, the rotation, the difference between checkpoints and
// the masked word. A preset's page never needs them.

export { createModel } from "./model.js";
export { createLenses } from "./lenses.js";
export { createRotation } from "./rotation.js";
export { createDifference } from "./difference.js";
export { createMaskedWord } from "./masked_word.js";
import "./first_screen.js";  // one chunk for what it shares with the first screen
