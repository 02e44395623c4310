/** What the vision model (task `vlm`) is asked about an image. */
export const IMAGE_INSTRUCTION = '用一两句简短的中文描述这张聊天图片的内容（主体、动作、图中文字），直接给出描述，不要加前缀。';

/** What the video model (task `video`) is asked about a video. */
export const VIDEO_INSTRUCTION = '用一两句简短的中文描述这段聊天视频的内容（人物、动作、发生了什么），直接给出描述，不要加前缀。';
