module.exports = { ...require('../../jest.int.preset.cjs'), displayName: 'messaging:int', rootDir: __dirname };
